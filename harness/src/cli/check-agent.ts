/**
 * An agent tree against the whole contract, as `evolve check --agent` reports it: the run's
 * own preflight (policy, compile, signature, on the host, never running the code) and then
 * the import gate (the compiled agent loads in a container).
 */
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { newSessionId, type EngineConnector } from "../../../sandbox/src/index.js";
import { EvolveError } from "../kernel/index.js";
import { checkAgentTree } from "../evolution/index.js";
import { createValidator, type Validator } from "../validation/index.js";

/** Every problem of the tree (empty when it passed all four gates). */
export async function checkAgent(agentDir: string, scratch: string, connect: EngineConnector): Promise<string[]> {
  const validator = createValidator();
  try {
    const problems = await checkAgentTree(agentDir, validator, scratch);
    return problems.length > 0 ? problems : await importCheck(agentDir, validator, scratch, connect);
  } finally {
    await validator.close();
  }
}

/** Gate 3 on a tree that passed the others: the compiled agent loads in a fresh container. */
async function importCheck(agentDir: string, validator: Validator, scratch: string, connect: EngineConnector): Promise<string[]> {
  let engine;
  try {
    engine = await connect({});
  } catch (error) {
    if (!(error instanceof EvolveError)) throw error;
    return [`agent ${agentDir}: the import check needs a Docker engine: ${error.message}${error.hint ? ` (${error.hint})` : ""}`];
  }
  try {
    const outcome = await validator.validateSeed({ childDir: agentDir, buildDir: join(await mkdtemp(join(scratch, "import-")), "build"), engine, labels: { session: newSessionId(), phase: "check" } });
    if (outcome.ok) return [];
    const { stage, code, message } = outcome.failure;
    return [`agent ${agentDir}: ${stage} gate, ${code}: ${message}`];
  } finally {
    await engine.close();
  }
}
