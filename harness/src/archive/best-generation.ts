/** Which generation of a run is "the best": one definition for the summary, the CLI and the report. */
import { visibleComplete } from "../results/index.js";
import { approvalCleared } from "../supervision/index.js";
import type { GenerationRecord } from "./generation-record.js";
import { parseGenerationId } from "./generation-id.js";

/**
 * A valid generation's visible score when it covers the whole visible split (so it may be
 * compared with others), else null: a child whose race stopped early has only a partial one.
 */
export function wholeVisibleScore(g: GenerationRecord): number | null {
  if (g.status.kind !== "valid" || g.scores.visible === null) return null;
  return g.evaluation === null || visibleComplete(g.evaluation) ? g.scores.visible : null;
}

/** Whether `a` ranks above `b` among the best: higher whole visible score, ties to the earlier id. */
function ranksAbove(a: { score: number; id: string }, b: { score: number; id: string }): boolean {
  return a.score > b.score || (a.score === b.score && (parseGenerationId(a.id) ?? Infinity) < (parseGenerationId(b.id) ?? Infinity));
}

/** The generations that may be "the best": valid, cleared by the run's policy, with a whole visible score. */
function contenders(generations: readonly GenerationRecord[]): { g: GenerationRecord; score: number; id: string }[] {
  return generations.flatMap((g) => {
    const score = wholeVisibleScore(g);
    return score === null || !approvalCleared(g) ? [] : [{ g, score, id: g.id }];
  });
}

/**
 * The valid generation with the highest whole visible score; ties go to the earliest id. A
 * child waiting for approval, or rejected, is not a candidate: "the best" is what may be used;
 * nor is one whose evaluation stopped early.
 */
export function bestGeneration(generations: readonly GenerationRecord[]): GenerationRecord | null {
  let best: { g: GenerationRecord; score: number; id: string } | null = null;
  for (const c of contenders(generations)) if (best === null || ranksAbove(c, best)) best = c;
  return best?.g ?? null;
}

/** How many of `generations` rank above a generation `id` with whole visible score `score` (0: it would be the best). */
export function rankAmongBest(generations: readonly GenerationRecord[], score: number, id: string): number {
  const me = { score, id };
  return contenders(generations).filter((c) => c.id !== id && ranksAbove(c, me)).length;
}
