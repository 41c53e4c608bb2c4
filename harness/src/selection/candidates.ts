/**
 * What a strategy sees of the archive: one entry per generation, with its score, how many
 * children it already has, how many of them gave nothing to build on, and its clade's
 * pooled outcomes. Built structurally from generation records so selection stays a pure
 * leaf module (it does not import the archive).
 */
import { approvalCleared } from "../supervision/index.js";
import { cladeOutcomes, type CladeOutcomes } from "./clade.js";
import { compareIds, wholeVisibleScore, type GenerationLike } from "./generation.js";

/** One possible parent. */
export interface SelectionCandidate {
  /** Generation id such as "g0007"; ids order generations by creation. */
  readonly id: string;
  /**
   * Only valid generations with a whole visible score can be parents; invalid ones, children
   * whose evaluation stopped early (racing), and children a run policy holds back (pending
   * approval, or rejected) are ignored by every strategy.
   */
  readonly valid: boolean;
  /** Visible score in [0, 1], higher is better. */
  readonly score: number;
  /** Children already attempted from it (valid or not), in flight included. */
  readonly children: number;
  /** Of those, the recorded ones that gave nothing to build on: invalid at any stage (an empty change included) or duplicates. 0 when absent. */
  readonly barren?: number;
  /** Its clade's pooled outcomes (itself and every descendant, see clade.ts); none when absent. */
  readonly clade?: CladeOutcomes;
  /** Generations on its plateau: itself and the relatives joined to it by parent-child links of the same whole visible score, below the archive's best; 1 at the best, and when absent. */
  readonly plateau?: number;
}

/**
 * Candidates from archive records; only valid generations with a whole visible score are
 * eligible (a duplicate's tree is its original's; a child whose race stopped early has no
 * whole score to weigh). Children are every attempted child (valid, invalid or a duplicate):
 * a parent whose edits keep failing is explored less, as with DGM's children count.
 * `inFlightParents` lists the parents of children still being made (one entry per child),
 * so parallel workers do not all pile onto the same parent.
 */
export function candidatesFromGenerations(
  generations: readonly GenerationLike[],
  inFlightParents: readonly string[] = [],
): SelectionCandidate[] {
  const children = new Map<string, number>();
  const barren = new Map<string, number>();
  const bump = (counts: Map<string, number>, id: string): void => {
    counts.set(id, (counts.get(id) ?? 0) + 1);
  };
  for (const g of generations) {
    if (g.parent === null) continue;
    bump(children, g.parent);
    if (g.status.kind !== "valid") bump(barren, g.parent);
  }
  for (const p of inFlightParents) bump(children, p);
  const clades = cladeOutcomes(generations, inFlightParents);
  const plateaus = plateauSizes(generations);
  return generations.map((g) => ({
    id: g.id,
    valid: approvalCleared(g) && wholeVisibleScore(g) !== null,
    score: wholeVisibleScore(g) ?? 0,
    children: children.get(g.id) ?? 0,
    barren: barren.get(g.id) ?? 0,
    clade: clades.get(g.id) ?? { successes: 0, failures: 0 },
    plateau: plateaus.get(g.id) ?? 1,
  }));
}

/**
 * The size of each generation's plateau: valid generations joined by parent-child links whose
 * whole visible scores are equal. A child that changes nothing the score sees is one more node
 * of the same place, not a new place: weighed alone, each such child would add its parent's
 * whole weight again, and a plateau would draw ever more of the run (bench:cost, snake seed 5:
 * 50 of the first 70 children). The plateau at the archive's best score is the frontier, where
 * every child of a task at its ceiling is neutral: it counts 1 (shared as well, it handed the
 * draws back to lower nodes and slowed email-validation). The best is taken over the parents
 * selection may draw (a child held back for approval is not the frontier).
 */
function plateauSizes(generations: readonly GenerationLike[]): Map<string, number> {
  // Each score once; the best by a loop, not Math.max(...scores), which throws past ~10^5 arguments.
  const scores = new Map(generations.map((g) => [g.id, g.status.kind === "valid" ? wholeVisibleScore(g) : null] as const));
  let top: number | null = null;
  for (const g of generations) {
    const score = scores.get(g.id) ?? null;
    if (score !== null && approvalCleared(g) && (top === null || score > top)) top = score;
  }
  const root = new Map<string, string>();
  const find = (id: string): string => {
    let r = id;
    while (root.get(r) !== undefined && root.get(r) !== r) r = root.get(r)!;
    root.set(id, r);
    return r;
  };
  const byId = new Map(generations.map((g) => [g.id, g] as const));
  for (const g of generations) {
    const score = scores.get(g.id) ?? null;
    if (score === null || g.parent === null || !byId.has(g.parent) || scores.get(g.parent) !== score) continue;
    root.set(find(g.id), find(g.parent));
  }
  const sizes = new Map<string, number>();
  for (const g of generations) sizes.set(find(g.id), (sizes.get(find(g.id)) ?? 0) + 1);
  // The top plateau is the frontier: it keeps each member's whole weight.
  return new Map(generations.map((g) => [g.id, top !== null && scores.get(g.id) === top ? 1 : sizes.get(find(g.id)) ?? 1] as const));
}

/** The valid candidates in id order, with non-finite scores treated as 0. */
export function eligible(candidates: readonly SelectionCandidate[]): SelectionCandidate[] {
  return candidates
    .filter((c) => c.valid)
    .map((c) => (Number.isFinite(c.score) ? c : { ...c, score: 0 }))
    .sort((x, y) => compareIds(x.id, y.id));
}
