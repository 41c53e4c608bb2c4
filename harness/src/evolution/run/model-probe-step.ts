/**
 * The model probe of `evolve run` (harness/src/llm/model-probe.ts): made once when a run
 * starts with the environment's endpoint, recorded in run.json, told to every meta agent as
 * ImproveRequest.llm, its tokens counted against the run budget (run-session.ts). A resumed
 * or replayed run reads it back instead of probing again, so its generations are told the same.
 */
import type { ModelProbe } from "../../kernel/index.js";
import { createLlmPort, probeModel, PROBE_WORST_TOKENS, skippedProbe, type LlmPort, type LlmSetup } from "../../llm/index.js";

/** The probe is skipped when it could take more than this share of the run's token budget. */
export const PROBE_BUDGET_SHARE = 20;

/** The run's probe, or null when there is nothing to probe (offline, or calls served from elsewhere: tests, replay). */
export async function probeForRun(setup: LlmSetup, port: LlmPort | null | undefined, budgetTokens: number | null, signal: AbortSignal): Promise<ModelProbe | null> {
  if (!setup.available || port !== undefined) return null;
  const at = new Date().toISOString();
  if (budgetTokens !== null && budgetTokens < PROBE_BUDGET_SHARE * PROBE_WORST_TOKENS) {
    return skippedProbe(setup.model, at, `the run's token budget (${budgetTokens}) is under ${PROBE_BUDGET_SHARE * PROBE_WORST_TOKENS} tokens, and the probe could take a twentieth of it`) satisfies ModelProbe;
  }
  const endpoint = createLlmPort(setup);
  if (endpoint === null) return null;
  return (await probeModel(endpoint, { signal })) satisfies ModelProbe;
}

/** One line for the run's opening lines. */
export function probeLine(probe: ModelProbe): string {
  if (probe.skipped !== null) return `model probe: ${probe.reason}`;
  return `model probe: the seed will use ${probe.mode === "tools" ? "its tool loop" : "edits as text"} (${probe.reason}); ${probe.calls} calls, ${probe.tokens.prompt + probe.tokens.completion} tokens`;
}
