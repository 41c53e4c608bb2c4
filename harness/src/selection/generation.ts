/**
 * What selection reads of a generation record (structurally, so selection never imports the
 * archive): its fields, its whole visible score, and the order of ids. Both parent choice
 * (candidates.ts) and "the best" (best-generation.ts) build on these.
 */
import { visibleComplete, type EvaluationResult, type VisibleCoverage } from "../results/index.js";
import type { ApprovalLike } from "../supervision/index.js";

/** The fields of a generation record that selection reads. */
export interface GenerationLike {
  readonly id: string;
  readonly parent: string | null;
  readonly status: { readonly kind: "valid" | "invalid" | "duplicate" };
  readonly scores: { readonly visible: number | null };
  /** The evaluation, when it ran: whether it was whole, and the instance scores the clades pool. */
  readonly evaluation?: EvaluationResult | null;
  /** The approval request a run policy attached, if any. */
  readonly approval?: ApprovalLike | undefined;
}

/**
 * What the rule reads of a record: a whole one, or the summary `evolve ls` and `show` read
 * (archive/generation-summary.ts), whose evaluation is only what says it covered the split.
 */
export type Contender = Pick<GenerationLike, "id" | "status" | "scores" | "approval"> & { readonly evaluation?: VisibleCoverage | null };

/**
 * A valid generation's visible score when it covers the whole visible split (so it may be
 * compared with others), else null: a child whose race stopped early has only a partial one.
 */
export function wholeVisibleScore(g: Contender): number | null {
  if (g.status.kind !== "valid" || g.scores.visible === null) return null;
  return g.evaluation == null || visibleComplete(g.evaluation) ? g.scores.visible : null;
}

/** Numeric order of generation ids ("g0009" < "g0010" < "g10000"); other ids by string; ids order generations by creation. */
export function compareIds(a: string, b: string): number {
  const na = /^g(\d+)$/.exec(a)?.[1];
  const nb = /^g(\d+)$/.exec(b)?.[1];
  if (na !== undefined && nb !== undefined && na.length !== nb.length) return na.length - nb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
