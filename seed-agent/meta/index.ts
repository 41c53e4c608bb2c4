/**
 * The seed meta agent: `improve` rewrites the agent tree (its own code included). With an
 * LLM it asks for SEARCH/REPLACE edits; without one, or when the model yields no applicable
 * edit, the offline strategy changes knobs so a generation is never empty.
 *
 * The strategies (and ts-morph, which they use) are imported when `improve` runs, not when
 * this module loads: loading ts-morph takes seconds, and the harness's import check loads
 * this module only to see that `improve` is a function.
 */
import type { ImproveFn } from "@evolve/contract";

export const improve: ImproveFn = async (request, ctx) => {
  const { offlineImprove } = await import("./offline.js");
  if (!ctx.llm.available) return offlineImprove(request, ctx);
  const { llmImprove } = await import("./llm.js");
  const outcome = await llmImprove(request, ctx);
  if (outcome.ok) return outcome.report;
  ctx.log(`meta: no applicable LLM edit (${outcome.note}); using the offline strategy`);
  return offlineImprove(request, ctx, ` (llm gave no applicable edit: ${outcome.note})`);
};
