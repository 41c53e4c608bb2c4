/** Which generation of a run is "the best": one definition for the summary, the CLI and the report. */
import { approvalCleared } from "../supervision/index.js";
import type { GenerationRecord } from "./generation-record.js";
import { parseGenerationId } from "./generation-id.js";

/**
 * The valid generation with the highest visible score; ties go to the earliest id. A child
 * waiting for approval, or rejected, is not a candidate: "the best" is what may be used.
 */
export function bestGeneration<G extends Pick<GenerationRecord, "id" | "status" | "scores" | "approval">>(generations: readonly G[]): G | null {
  let best: G | null = null;
  let bestNumber = Infinity;
  for (const g of generations) {
    if (g.status.kind !== "valid" || g.scores.visible === null || !approvalCleared(g)) continue;
    const n = parseGenerationId(g.id) ?? Infinity;
    const score = best?.scores.visible ?? -Infinity;
    if (best === null || g.scores.visible > score || (g.scores.visible === score && n < bestNumber)) {
      best = g;
      bestNumber = n;
    }
  }
  return best;
}
