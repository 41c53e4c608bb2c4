/**
 * One process's work on a run, shared by `evolve run` and `evolve resume`: wire the run
 * context, make generation 0 if it is missing, run the loop, mark the run, summarise.
 */
import { bestGeneration } from "../../selection/index.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newSessionId, type RuntimeImage, type SandboxEngine } from "../../../../sandbox/src/index.js";
import { readRun, type ArchiveWriter, type GenerationRecord, type RunRecord } from "../../archive/index.js";
import type { Task } from "../../evaluation/index.js";
import { costUsd, type LlmPort, type LlmSetup } from "../../llm/index.js";
import { createRng, restoreRng } from "../../selection/index.js";
import type { Validator } from "../../validation/index.js";
import { hasApprovalRules } from "../../supervision/index.js";
import { ApprovalWatch } from "../loop/index.js";
import { formatEngineLoad, Progress, type ProgressSink } from "../view/index.js";
import { redoingLost } from "../steps/index.js";
import { writeRunReport } from "../view/index.js";
import { StepInterrupted, type RunContext } from "../context/index.js";
import { runContextOf, solveSpentOf } from "../context/index.js";
import { runLoop } from "../loop/index.js";
import type { LoopEnd } from "../context/index.js";
import { runArenaLoop } from "../arena-rounds/index.js";
import { runSeedGeneration } from "../steps/index.js";
import { formatSummary, summarise, type RunSummary } from "../view/index.js";

export interface SessionInputs {
  writer: ArchiveWriter;
  task: Task;
  engine: SandboxEngine;
  validator: Validator;
  llm: { setup: LlmSetup; port?: LlmPort | null };
  /** The tree to record as g0000 when the run has none yet. */
  seedDir: string;
  signal: AbortSignal;
  sink: ProgressSink;
  /** Container session label; fresh when absent. */
  session?: string;
  /** Snapshot hash → harness deaths while its checks ran (resume reads them from the events). */
  checkDeaths?: ReadonlyMap<string, number>;
}

/** Runs (or continues) the run in `writer` to its end; prints progress and the summary to `sink`. */
export async function executeRun(inputs: SessionInputs): Promise<RunSummary> {
  const started = Date.now();
  const { writer, engine } = inputs;
  const run = writer.run;
  const image = await engine.ensureRuntimeImage();
  const workRoot = await mkdtemp(join(tmpdir(), "evolve-run-"));
  const contents = await readRun(writer.runDir);
  const records: GenerationRecord[] = [...contents.generations];
  const ctx = sessionContext(inputs, records, { image, workRoot });
  const sweeper = sweepWhenAborted(ctx);
  const load = ctx.engines.recording ? () => formatEngineLoad(engine.engines()) : null;
  const context = { task: run.config.task.name, offline: !inputs.llm.setup.available };
  const progress = new Progress(inputs.sink, run.config.generations, records, { supervised: hasApprovalRules(run.policy), load, context });
  const unwatch = logEngineHealth(engine, writer, progress);
  for (const problem of contents.problems) progress.note(`warning: skipped unreadable record ${problem.path}: ${problem.reason}`);
  // Pending children recorded before a resume stay pending (they are records, not redone);
  // the first look writes the timeouts that fell due while no process ran.
  const approvals = new ApprovalWatch(writer, records, progress, ctx.policy);
  let end: LoopEnd = "interrupted";
  try {
    end = await runGenerations(ctx, inputs, records, approvals, progress);
  } catch (error) {
    progress.stop();
    await markStopped(writer, `harness error: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  } finally {
    await approvals.stop();
    progress.stop();
    unwatch();
    ctx.engines.close();
    await sweeper.stop();
    // Idle warm-pool sandboxes (EVOLVE_WARM_POOL) go with the run; a no-op without a pool.
    await ctx.sandbox.engine.close().catch(() => undefined);
    await ctx.builds.dispose().catch(() => undefined);
    await inputs.validator.close().catch(() => undefined);
    await rm(workRoot, { recursive: true, force: true }).catch(() => undefined);
  }
  if (end === "interrupted") await markStopped(writer, "interrupted (SIGINT)");
  else {
    await writer.updateRun((r) => ({ ...r, status: "finished" }));
    await writer.appendEvent({ type: "finished", at: new Date().toISOString(), best: bestGeneration(records)?.id ?? null });
  }
  const report = await writeRunReport(writer.runDir);
  const summary = summarise((await readRun(writer.runDir)).generations, {
    runId: run.id,
    runDir: writer.runDir,
    end,
    requested: run.config.generations,
    model: run.config.model,
    wallMs: Date.now() - started,
    report,
    task: run.config.task.name,
  });
  for (const line of formatSummary(summary)) inputs.sink.write(`${line}\n`);
  return summary;
}

/** The run's context for this process: its ledgers start from what the records (and the start's model probe) already spent. */
function sessionContext(inputs: SessionInputs, records: readonly GenerationRecord[], at: { image: RuntimeImage; workRoot: string }): RunContext {
  const run = inputs.writer.run;
  const probe = run.llmProbe?.tokens ?? { prompt: 0, completion: 0 };
  const probeSpent = { tokens: probe.prompt + probe.completion, usd: costUsd(inputs.llm.setup.price, probe.prompt, probe.completion) ?? 0 };
  const spent = records.reduce((s, r) => ({ tokens: s.tokens + r.tokens.prompt + r.tokens.completion, usd: s.usd + (r.costUsd ?? 0) }), probeSpent);
  return runContextOf(run, {
    engine: inputs.engine,
    image: at.image,
    session: inputs.session ?? newSessionId(),
    task: inputs.task,
    validator: inputs.validator,
    workRoot: at.workRoot,
    llm: { ...inputs.llm, spent, solveSpent: solveSpentOf(records) },
    signal: inputs.signal,
    ...(inputs.checkDeaths === undefined ? {} : { checkDeaths: inputs.checkDeaths }),
  });
}

/** Generation 0 when the run has none yet, then the loop (or the arena's rounds) to its end. */
async function runGenerations(ctx: RunContext, inputs: SessionInputs, records: GenerationRecord[], approvals: ApprovalWatch, progress: Progress): Promise<LoopEnd> {
  const { writer } = inputs;
  const run = writer.run;
  await approvals.refresh();
  approvals.start();
  await writer.updateRun((r) => ({ ...r, status: "running" }));
  if (!records.some((r) => r.parent === null)) {
    try {
      const summary = run.from === undefined ? "seed" : `branched from ${run.from.run}/${run.from.generation}`;
      const seed = await redoingLost(ctx, writer, "g0000", () => runSeedGeneration(ctx, writer, inputs.seedDir, summary));
      records.push(seed);
      progress.recorded(seed);
    } catch (error) {
      if (!(error instanceof StepInterrupted) && !inputs.signal.aborted) throw error;
    }
  }
  if (inputs.signal.aborted) return "interrupted";
  const rng = run.rng === null ? createRng(run.config.seed) : restoreRng(run.rng);
  const loop = { total: run.config.generations, workers: run.config.workers, selection: run.config.selection, beforeSelect: () => approvals.refresh() };
  const arena = run.config.arena;
  const end =
    arena === undefined
      ? await runLoop(ctx, writer, { records, rng }, loop, progress)
      : await runArenaLoop({ ctx, writer, records, settings: arena, progress, workers: run.config.workers });
  // Timeouts that fell due during the last child are written before the summary reads the archive.
  await approvals.refresh();
  return end;
}

/** An engine going down or coming back: a line for the person, an event in the log. */
function logEngineHealth(engine: SandboxEngine, writer: ArchiveWriter, progress: Progress): () => void {
  return engine.watch((event) => {
    if (event.type !== "down" && event.type !== "up") return;
    const reason = event.type === "down" ? event.reason : null;
    progress.note(event.type === "down" ? `engine ${event.engine} is down (${event.reason}): what ran there is redone elsewhere` : `engine ${event.engine} answers again: it takes containers again`);
    void writer.appendEvent({ type: "engine", at: new Date().toISOString(), engine: event.engine, state: event.type, reason }).catch(() => undefined);
  });
}

async function markStopped(writer: ArchiveWriter, reason: string): Promise<void> {
  await writer.updateRun((r) => ({ ...r, status: "interrupted" })).catch(() => undefined);
  await writer.appendEvent({ type: "interrupted", at: new Date().toISOString(), reason }).catch(() => undefined);
}

const SWEEP_INTERVAL_MS = 500;

/**
 * Ctrl-C: from the abort on, remove this session's containers every half second until the
 * steps in flight have given up (a step may open another container before it notices),
 * then once more when stopped.
 */
function sweepWhenAborted(ctx: RunContext): { stop(): Promise<void> } {
  const { engine, session } = ctx.sandbox;
  let timer: NodeJS.Timeout | null = null;
  const sweep = (): Promise<unknown> => engine.sweep({ session }).catch(() => undefined);
  const start = (): void => {
    void sweep();
    timer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
  };
  if (ctx.signal.aborted) start();
  else ctx.signal.addEventListener("abort", start, { once: true });
  return {
    async stop() {
      ctx.signal.removeEventListener("abort", start);
      if (timer !== null) clearInterval(timer);
      if (ctx.signal.aborted) await sweep();
    },
  };
}
