/**
 * What a strategy sees of the archive: one entry per generation, with its score and how
 * many children it already has. Built structurally from generation records so selection
 * stays a pure leaf module (it does not import the archive).
 */
import { approvalCleared, type ApprovalLike } from "../supervision/index.js";

/** One possible parent. */
export interface SelectionCandidate {
  /** Generation id such as "g0007"; ids order generations by creation. */
  readonly id: string;
  /**
   * Only valid generations can be parents; invalid ones, and children a run policy holds
   * back (pending approval, or rejected), are ignored by every strategy.
   */
  readonly valid: boolean;
  /** Visible score in [0, 1], higher is better. */
  readonly score: number;
  /** Children already attempted from it (valid or not), in flight included. */
  readonly children: number;
}

/** The fields of a generation record that selection reads. */
export interface GenerationLike {
  readonly id: string;
  readonly parent: string | null;
  readonly status: { readonly kind: "valid" | "invalid" | "duplicate" };
  readonly scores: { readonly visible: number | null };
  /** The approval request a run policy attached, if any. */
  readonly approval?: ApprovalLike | undefined;
}

/**
 * Candidates from archive records; only valid generations are eligible (a duplicate's tree is
 * its original's). Children are every attempted child (valid, invalid or a duplicate):
 * a parent whose edits keep failing is explored less, as with DGM's children count.
 * `inFlightParents` lists the parents of children still being made (one entry per
 * child), so parallel workers do not all pile onto the same parent. A valid generation
 * without a visible score counts as score 0.
 */
export function candidatesFromGenerations(
  generations: readonly GenerationLike[],
  inFlightParents: readonly string[] = [],
): SelectionCandidate[] {
  const children = new Map<string, number>();
  const bump = (id: string): void => {
    children.set(id, (children.get(id) ?? 0) + 1);
  };
  for (const g of generations) if (g.parent !== null) bump(g.parent);
  for (const p of inFlightParents) bump(p);
  return generations.map((g) => ({
    id: g.id,
    valid: g.status.kind === "valid" && approvalCleared(g),
    score: g.scores.visible ?? 0,
    children: children.get(g.id) ?? 0,
  }));
}

/** Numeric order of generation ids ("g0009" < "g0010" < "g10000"); other ids by string. */
export function compareIds(a: string, b: string): number {
  const na = /^g(\d+)$/.exec(a)?.[1];
  const nb = /^g(\d+)$/.exec(b)?.[1];
  if (na !== undefined && nb !== undefined && na.length !== nb.length) return na.length - nb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The valid candidates in id order, with non-finite scores treated as 0. */
export function eligible(candidates: readonly SelectionCandidate[]): SelectionCandidate[] {
  return candidates
    .filter((c) => c.valid)
    .map((c) => (Number.isFinite(c.score) ? c : { ...c, score: 0 }))
    .sort((x, y) => compareIds(x.id, y.id));
}
