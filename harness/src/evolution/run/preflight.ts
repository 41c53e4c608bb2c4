/**
 * Checks before any container starts: the task folder loads and its grader survives a trivial
 * candidate, and the agent tree meets the contract (policy, compile, signature on the host).
 * Every reason is reported at once. `evolve check` runs the same checks.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EvolveError } from "../../kernel/index.js";
import { diffDirectories } from "../../archive/index.js";
import { loadTask, smokeTestGrader, type Task } from "../../evaluation/index.js";
import { REQUIRED_FILES, type Validator } from "../../validation/index.js";

/** Every reason an agent tree does not meet the contract (empty when it does). */
export async function checkAgentTree(agentDir: string, validator: Validator, scratch: string): Promise<string[]> {
  const info = await stat(agentDir).catch(() => null);
  if (info === null) return [`agent ${agentDir}: no such folder`];
  if (!info.isDirectory()) return [`agent ${agentDir}: not a folder`];
  const problems: string[] = [];
  for (const file of REQUIRED_FILES) {
    const entry = await stat(join(agentDir, file)).catch(() => null);
    if (entry === null || !entry.isFile()) problems.push(`agent ${agentDir}: missing ${file} (the contract's entry point)`);
  }
  const read = await diffDirectories(null, agentDir);
  if (!read.ok) problems.push(`agent ${agentDir}: ${read.reason}`);
  if (problems.length > 0) return problems;
  const buildDir = await mkdtemp(join(scratch, "preflight-"));
  try {
    await rm(buildDir, { recursive: true });
    const outcome = await validator.validateStatic({ childDir: agentDir, buildDir, parentDir: null });
    if (!outcome.ok) {
      const { stage, code, message } = outcome.failure;
      problems.push(`agent ${agentDir}: ${stage} gate, ${code}: ${message}`);
    }
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }
  return problems;
}

/**
 * Loads the task folder and grades a few instances against a trivial stand-in candidate.
 * The task is null when it did not load; problems lists what is wrong either way.
 */
export async function checkTask(taskDir: string): Promise<{ task: Task | null; problems: string[] }> {
  let task: Task;
  try {
    task = await loadTask(taskDir);
  } catch (error) {
    if (!(error instanceof EvolveError) || error.code !== "invalid_task") throw error;
    return { task: null, problems: [error.message] };
  }
  const smoke = await smokeTestGrader(task);
  return { task, problems: smoke.length === 0 ? [] : [`task ${task.dir} is invalid:\n- ${smoke.join("\n- ")}`] };
}

/**
 * Loads the task and checks the agent; one EvolveError listing every problem, or the task.
 * The error's code says whose fault comes first: the agent's when the agent has any.
 */
export async function preflight(taskDir: string, agentDir: string, validator: Validator, scratch: string, extra: string[] = []): Promise<Task> {
  const checked = await checkTask(taskDir);
  const task = checked.problems.length === 0 ? checked.task : null;
  const agentProblems = await checkAgentTree(agentDir, validator, scratch);
  const problems = [...extra, ...checked.problems, ...agentProblems];
  if (problems.length > 0 || task === null) {
    throw new EvolveError(agentProblems.length > 0 ? "invalid_agent" : "invalid_task", `refusing to start the run:\n- ${problems.join("\n- ")}`, {
      hint: "fix every listed problem; nothing was started",
    });
  }
  return task;
}

/**
 * `preflight` as a run does it: in a scratch folder of its own, and with the validator
 * closed when the run is refused (nothing else will use its check worker then).
 */
export async function preflightRun(taskDir: string, agentDir: string, validator: Validator): Promise<Task> {
  const scratch = await mkdtemp(join(tmpdir(), "evolve-preflight-"));
  try {
    return await preflight(taskDir, agentDir, validator, scratch);
  } catch (error) {
    await validator.close();
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
