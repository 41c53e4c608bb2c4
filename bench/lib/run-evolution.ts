/**
 * Runs the real loop (`startRun`; the offline strategy unless an LLM endpoint is given) with
 * an injected engine and a quiet sink, and reads the run back through zod.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRun, type GenerationRecord } from "../../harness/src/archive/index.js";
import { startRun, type RunSummary } from "../../harness/src/evolution/index.js";
import type { SandboxEngine } from "../../sandbox/src/index.js";
import type { SelectionStrategyName } from "../../harness/src/selection/index.js";

export interface BenchRunOptions {
  task: string;
  generations: number;
  workers: number;
  selection?: SelectionStrategyName;
  seed?: number;
  /** Calls of ctx.evaluate per generation (the run's default when absent; 0: the one-move offline strategy). */
  evaluations?: number;
  /** Archive root; a fresh temp folder when absent. */
  out?: string;
  runId?: string;
  /** An OpenAI-compatible endpoint (no key) and the model to ask; offline when absent. */
  llm?: { baseURL: string; model: string };
  /** The run's economy (ImproveRequest.attempts, racing, the barren discount); the run's defaults when absent. */
  attempts?: number;
  racing?: boolean;
  discountBarren?: boolean;
  /** Wall clock of one candidate's checks (ms); the run's default when absent (a loaded machine may need more). */
  checkTimeoutMs?: number;
}

export interface BenchRun {
  /** The archive root; a temp folder the caller removes (removeRoot) unless it gave `out`. */
  root: string;
  runDir: string;
  wallMs: number;
  summary: RunSummary;
  /** Every generation read back, g0000 (the seed) first. */
  generations: GenerationRecord[];
  problems: string[];
}

/** A fresh archive root for a benchmark (on disk, like a real run's generations/). */
export function benchArchiveRoot(name: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `evolve-bench-${name}-`));
}

/** Runs one evolution to its end; the environment is empty (but for an endpoint when given), so no host setting leaks in. */
export async function runEvolution(engine: SandboxEngine, options: BenchRunOptions, signal?: AbortSignal): Promise<BenchRun> {
  const out = options.out ?? (await benchArchiveRoot("run"));
  const started = performance.now();
  const summary = await startRun(
    {
      task: options.task,
      generations: options.generations,
      workers: options.workers,
      ...(options.selection === undefined ? {} : { selection: options.selection }),
      seed: options.seed ?? 1,
      ...(options.evaluations === undefined ? {} : { evaluations: options.evaluations }),
      out,
      ...(options.runId === undefined ? {} : { runId: options.runId }),
      ...(options.llm === undefined ? {} : { model: options.llm.model }),
      ...(options.attempts === undefined ? {} : { attempts: options.attempts }),
      ...(options.racing === undefined ? {} : { racing: options.racing }),
      ...(options.discountBarren === undefined ? {} : { discountBarren: options.discountBarren }),
      ...(options.checkTimeoutMs === undefined ? {} : { checkTimeoutMs: options.checkTimeoutMs }),
    },
    { sink: { isTTY: false, write: () => undefined }, signal: signal ?? new AbortController().signal, env: options.llm === undefined ? {} : { OPENAI_BASE_URL: options.llm.baseURL }, engine },
  );
  const wallMs = performance.now() - started;
  const runDir = summary.runDir;
  const contents = await readRun(runDir);
  return {
    root: out,
    runDir,
    wallMs,
    summary,
    generations: contents.generations,
    problems: contents.problems.map((p) => `${p.path}: ${p.reason}`),
  };
}

/** Removes a benchmark archive root (only ones made by benchArchiveRoot). */
export async function removeRoot(root: string): Promise<void> {
  if (root.startsWith(join(tmpdir(), "evolve-bench-"))) await rm(root, { recursive: true, force: true });
}
