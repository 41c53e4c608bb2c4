/**
 * The seed meta agent: `improve` rewrites the agent tree (its own code included). With an
 * LLM it runs the tool loop, or asks for SEARCH/REPLACE edits when search.llmMode or the
 * harness's probe of the model (request.llm) says "text", or the endpoint refuses tools; without one, or when the model yields no applicable edit,
 * the offline strategy changes knobs so a generation is never empty. A tester generation
 * (request.role "tester") goes to role.ts instead.
 *
 * The strategies (and TypeScript, which they parse with) are imported when `improve` runs,
 * not when this module loads: loading the compiler costs a good part of a CPU-second cold,
 * and the harness's import check loads this module only to see that `improve` is a function.
 */
import type { ImproveContext, ImproveFn, ImproveRequest } from "@evolve/contract";
import type { LlmOutcome } from "./llm.js";
import { search } from "./search-params.js";

async function llmOutcome(request: ImproveRequest, ctx: ImproveContext): Promise<LlmOutcome> {
  // The harness probed the model when the run started: tools it refuses or ignores cost calls for nothing.
  const mode = request.llm?.mode === "text" ? "text" : search.llmMode;
  if (mode === "tools") {
    const { toolImprove } = await import("./tool-loop.js");
    const outcome = await toolImprove(request, ctx);
    if (outcome.ok || !outcome.toolsUnsupported) return outcome;
    ctx.log(`meta: the endpoint refused tools (${outcome.note}); using SEARCH/REPLACE`);
  }
  const { llmImprove } = await import("./llm.js");
  return llmImprove(request, ctx);
}

export const improve: ImproveFn = async (request, ctx) => {
  // A test generation (arena runs) rewrites tester/ only; the solver path below is untouched.
  if (request.role === "tester") return (await import("./role.js")).testerImprove(request, ctx);
  if (!ctx.llm.available) return (await import("./offline.js")).offlineImprove(request, ctx);
  const outcome = await llmOutcome(request, ctx);
  if (outcome.ok) return outcome.report;
  const { offlineImprove } = await import("./offline.js");
  ctx.log(`meta: no applicable LLM edit (${outcome.note}); using the offline strategy`);
  return offlineImprove(request, ctx, ` (llm gave no applicable edit: ${outcome.note})`);
};
