/**
 * A task whose agent needs a model at solve time (task.json `"needsModel": true`) is refused
 * at once when the run has none: offline, every child would score 0 for want of an answer, and
 * a run of such children only spends containers. Read from the manifest alone, before the agent
 * is checked; a malformed manifest is left to the preflight, which reports it fully.
 */
import { join } from "node:path";
import { z } from "zod";
import { EvolveError, readJson } from "../../kernel/index.js";
import type { LlmSetup } from "../../llm/index.js";

/** The two fields this check reads; the rest of the manifest is the preflight's. */
const ModelNeed = z.object({ name: z.string().optional(), needsModel: z.boolean().optional() }).loose();

/** Throws a one-line refusal when the task in `taskDir` needs a model and `setup` has none. */
export async function refuseWithoutModel(taskDir: string, setup: LlmSetup): Promise<void> {
  if (setup.available) return;
  const manifest = await readJson(ModelNeed, join(taskDir, "task.json"));
  if (!manifest.ok || manifest.value.needsModel !== true) return;
  throw new EvolveError("invalid_options", `task ${manifest.value.name ?? taskDir} needs a model (its task agent asks the LLM while it solves), and this run has none: ${setup.reason}`, {
    hint: "set OPENAI_BASE_URL (and OPENAI_API_KEY) and pass --model; see the task's README",
  });
}
