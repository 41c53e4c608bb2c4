/**
 * The seed meta agent: `improve` rewrites the agent tree (its own code included). With an
 * LLM it asks for SEARCH/REPLACE edits; without one, or when the model yields no applicable
 * edit, the offline strategy changes knobs so a generation is never empty.
 */
import type { ImproveFn } from "@evolve/contract";
import { llmImprove } from "./llm.js";
import { offlineImprove } from "./offline.js";

export const improve: ImproveFn = async (request, ctx) => {
  if (!ctx.llm.available) return offlineImprove(request, ctx);
  const outcome = await llmImprove(request, ctx);
  if (outcome.ok) return outcome.report;
  ctx.log(`meta: no applicable LLM edit (${outcome.note}); using the offline strategy`);
  return offlineImprove(request, ctx, ` (llm gave no applicable edit: ${outcome.note})`);
};
