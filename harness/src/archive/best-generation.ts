/** Which generation of a run is "the best": one definition for the summary, the CLI and the report. */
import type { GenerationRecord } from "./generation-record.js";
import { parseGenerationId } from "./generation-id.js";

/** The valid generation with the highest visible score; ties go to the earliest id. */
export function bestGeneration(generations: readonly GenerationRecord[]): GenerationRecord | null {
  let best: GenerationRecord | null = null;
  let bestNumber = Infinity;
  for (const g of generations) {
    if (g.status.kind !== "valid" || g.scores.visible === null) continue;
    const n = parseGenerationId(g.id) ?? Infinity;
    const score = best?.scores.visible ?? -Infinity;
    if (best === null || g.scores.visible > score || (g.scores.visible === score && n < bestNumber)) {
      best = g;
      bestNumber = n;
    }
  }
  return best;
}
