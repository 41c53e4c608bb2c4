/**
 * `evolve resume <run>`: continue a run from its archive after any stop (SIGKILL included).
 * The archive is the only state: recorded generations count, children that were in flight
 * are replaced by newly selected ones, the selection RNG continues from run.json, and containers of
 * dead sessions are swept first.
 */
import { hostname } from "node:os";
import { runtimeBaseImage } from "../../../../sandbox/src/index.js";
import { EvolveError } from "../../kernel/index.js";
import { abandonedChildren, ArchiveWriter, deathsWhileChecking, ensureWritableFolder, readEvents, readRunRecord, resolveRunDir } from "../../archive/index.js";
import { loadTask } from "../../evaluation/index.js";
import { resolveLlmSetup } from "../../llm/index.js";
import { createValidator } from "../../validation/index.js";
import { preflightRun } from "./preflight.js";
import { recordedTaskDir } from "./recorded-task.js";
import { DEFAULT_ARCHIVE_ROOT } from "./run-settings.js";
import { checkLimitsOf } from "../context/index.js";
import { executeRun } from "./run-session.js";
import { connectOwned, sessionIo, type RunIo } from "./start-run.js";
import { StartUp } from "./start-up.js";
import { plural } from "../../text/index.js";
import type { RunSummary } from "../view/index.js";

/**
 * What becomes of a child the dead process had in flight: it is not recorded, and the loop
 * selects a new child in its place, numbered after the last recorded one (so the lost id
 * may come back, on another child).
 */
const REDONE = "it was not recorded; a newly selected child takes its place (ids go on from the last recorded one)";

/** Continues the run named `run` (a run id under `root`, or a path) to its end. */
export async function resumeRun(run: string, io: RunIo & { root?: string }): Promise<RunSummary> {
  const runDir = await resolveRunDir(run, io.root ?? DEFAULT_ARCHIVE_ROOT);
  // The runtime the run asked for decides which engines can take it: read before connecting.
  const recordedRun = await readRunRecord(runDir);
  if (!recordedRun.ok) throw new EvolveError("archive_corrupt", `${recordedRun.problem.path}: ${recordedRun.problem.reason}`);
  if (typeof io.engine === "function") runtimeBaseImage(io.env);
  await ensureWritableFolder(runDir, "run");
  // The engines and the check worker are closed on every way out until the run owns them.
  const startUp = new StartUp(io.signal);
  return startUp.guard(async () => {
    const engine = await startUp.step(connectOwned(startUp, io, recordedRun.value.config.runtime));
    // Before opening the archive: a dead process's containers go, and so do its temp folders (open()).
    const swept = await startUp.step(engine.sweep());
    if (swept.containers + swept.volumes > 0) io.sink.write(`swept ${plural(swept.containers, "container")} and ${plural(swept.volumes, "volume")} left by dead sessions\n`);
    const writer = await ArchiveWriter.open(runDir);
    const config = writer.run.config;
    const llmSetup = resolveLlmSetup(io.env, config.model === null ? {} : { model: config.model });
    if (config.model !== null && !llmSetup.available) {
      throw new EvolveError("invalid_options", `run ${writer.run.id} used model ${config.model}, but no LLM endpoint is configured now (${llmSetup.reason})`, {
        hint: "set OPENAI_BASE_URL (and OPENAI_API_KEY) as for the original run",
      });
    }
    const recorded = writer.recordedIds();
    const validator = startUp.own(createValidator({ limits: checkLimitsOf(writer.run) }), (v) => v.close({ now: true }));
    validator.warm();
    // With g0000 recorded the agent was checked when the run started; the task loads again.
    const task = await startUp.step(
      recorded.includes("g0000") ? loadTask(recordedTaskDir(config.task)) : preflightRun(recordedTaskDir(config.task), config.agentDir, validator),
    );
    await startUp.step(engine.ensureRuntimeImage());
    // Read before this process's own `resumed` event: every earlier process is gone by now.
    const abandoned = abandonedChildren((await readEvents(runDir)).events);
    await writer.appendEvent({ type: "resumed", at: new Date().toISOString(), recorded: recorded.length, pid: process.pid, host: hostname() });
    const children = recorded.filter((id) => id !== "g0000").length;
    io.sink.write(`resuming ${writer.run.id}: ${children}/${plural(config.generations, "child", "children")} recorded\narchive ${writer.runDir}\n`);
    const lastDeath = abandoned[abandoned.length - 1] ?? [];
    for (const child of lastDeath) io.sink.write(`  ${child.generation} was in ${child.phase} when the last process died; ${REDONE}\n`);
    startUp.handOver();
    return executeRun({
      writer,
      task,
      engine,
      validator,
      seedDir: config.agentDir,
      checkDeaths: deathsWhileChecking(abandoned),
      ...sessionIo(io, llmSetup),
    });
  });
}
