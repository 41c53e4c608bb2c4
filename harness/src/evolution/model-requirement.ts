/**
 * A task whose agent needs a model at solve time (task.json `"needsModel": true`) is refused
 * at once when the run has none: offline, every child would score 0 for want of an answer, and
 * a run of such children only spends containers. Read from the manifest alone, before the agent
 * is checked; a malformed manifest is left to the preflight, which reports it fully.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { EvolveError } from "../errors/index.js";
import type { LlmSetup } from "../llm/index.js";

/** Throws a one-line refusal when the task in `taskDir` needs a model and `setup` has none. */
export async function refuseWithoutModel(taskDir: string, setup: LlmSetup): Promise<void> {
  if (setup.available) return;
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(join(taskDir, "task.json"), "utf8"));
  } catch {
    return;
  }
  if (manifest === null || typeof manifest !== "object" || (manifest as { needsModel?: unknown }).needsModel !== true) return;
  const name = typeof (manifest as { name?: unknown }).name === "string" ? (manifest as { name: string }).name : taskDir;
  throw new EvolveError("invalid_options", `task ${name} needs a model (its task agent asks the LLM while it solves), and this run has none: ${setup.reason}`, {
    hint: "set OPENAI_BASE_URL (and OPENAI_API_KEY) and pass --model; see the task's README",
  });
}
