/**
 * Which generation of a run is "the best": one definition for the summary, the CLI, the
 * report and the held-out rule. The rule is selection's (it weighs approval and whole scores
 * as parent choice does), read structurally from records, so the archive stores and never judges.
 */
import { visibleComplete, type VisibleCoverage } from "../results/index.js";
import { approvalCleared } from "../supervision/index.js";
import { compareIds, type GenerationLike } from "./candidates.js";

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

/** Its score as a contender for "the best": whole, valid and cleared by the run's policy; else null. */
export function contenderScore(g: Contender): number | null {
  return approvalCleared(g) ? wholeVisibleScore(g) : null;
}

/** Whether `a` ranks above `b` among the best: higher whole visible score, ties to the earlier id. */
export function ranksAbove(a: { score: number; id: string }, b: { score: number; id: string }): boolean {
  return a.score > b.score || (a.score === b.score && compareIds(a.id, b.id) < 0);
}

/**
 * The valid generation with the highest whole visible score; ties go to the earliest id. A
 * child waiting for approval, or rejected, is not a candidate: "the best" is what may be used;
 * nor is one whose evaluation stopped early.
 */
export function bestGeneration<G extends Contender>(generations: readonly G[]): G | null {
  let best: { g: G; score: number; id: string } | null = null;
  for (const g of generations) {
    const score = contenderScore(g);
    if (score !== null && (best === null || ranksAbove({ score, id: g.id }, best))) best = { g, score, id: g.id };
  }
  return best?.g ?? null;
}

/** How many of `generations` rank above a generation `id` with whole visible score `score` (0: it would be the best). */
export function rankAmongBest(generations: readonly Contender[], score: number, id: string): number {
  const me = { score, id };
  return generations.filter((g) => {
    const s = contenderScore(g);
    return g.id !== id && s !== null && ranksAbove({ score: s, id: g.id }, me);
  }).length;
}
