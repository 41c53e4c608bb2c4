/**
 * Which generation of a run is "the best": one definition for the summary, the CLI, the
 * report and the held-out rule. The rule is selection's (it weighs approval and whole scores
 * as parent choice does), read structurally from records, so the archive stores and never judges.
 */
import { approvalCleared } from "../supervision/index.js";
import { compareIds, wholeVisibleScore, type Contender, type GenerationLike } from "./generation.js";

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
