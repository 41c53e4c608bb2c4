/**
 * One stage of an evaluation: its instances stream through one solve session; a session
 * that dies (timeout, crash, protocol) is replaced by a fresh one, a bounded number of times.
 */
import type { EvaluationStage, InstanceResult, Split, StageResult } from "../results/index.js";
import type { Grader, TaskInstance } from "./grader.js";
import { attemptInstance, instanceResult, notRun, type Attempt, type CallTarget, type GradeLimits } from "./grade-instance.js";
import type { RunTests } from "./code-tests.js";
import { capTail } from "../text/index.js";

/** A session as the stage sees it; `close` returns the session's capped stderr. */
export interface StageSession extends CallTarget {
  close(): Promise<{ stderr: string }>;
}

export interface StageEnv {
  grader: Grader;
  /** Opens a fresh session whose container may live until `deadline` (epoch ms). */
  open(stage: EvaluationStage, deadline: number): Promise<StageSession>;
  limits: GradeLimits;
  repeats: number;
  /** Fresh sessions allowed after the first one died. */
  maxRestarts: number;
  seed: number;
  /** The graders' way to run the candidate's code (absent: refused, as on the host). */
  runTests?: RunTests;
}

export interface StageRun {
  result: StageResult;
  computeMs: number;
}

const STDERR_CAP = 16 * 1024;

/** Mixes a seed with a repeat index into a 31-bit seed (deterministic). */
export function repeatSeed(seed: number, repeat: number): number {
  let h = (seed ^ 0x9e3779b9 ^ Math.imul(repeat + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) & 0x7fffffff;
}


/**
 * The candidate's sessions of one stage: one at a time, a fresh one after one dies, up to the
 * restart limit; their stderr kept in order.
 */
class StageSessions {
  readonly stderr: string[] = [];
  #session: StageSession | null = null;
  #opened = 0;

  constructor(
    private readonly stage: EvaluationStage,
    private readonly env: StageEnv,
  ) {}

  /** A live session, or the reason none may be opened any more. */
  async live(): Promise<StageSession | string> {
    if (this.#session !== null && this.#session.alive) return this.#session;
    await this.close();
    if (this.#opened > this.env.maxRestarts) return `not run: the candidate's session failed ${this.#opened} times in this stage (restart limit ${this.env.maxRestarts})`;
    this.#opened += 1;
    this.#session = await this.env.open(this.stage, this.env.limits.splitDeadline);
    return this.#session;
  }

  async close(): Promise<void> {
    if (this.#session === null) return;
    const closing = this.#session;
    this.#session = null;
    this.stderr.push((await closing.close()).stderr);
  }
}

/** One instance, `env.repeats` times; a repeat that could not run is a zero with the reason. */
async function runInstance(instance: TaskInstance, split: Split, env: StageEnv, sessions: StageSessions): Promise<{ result: InstanceResult; computeMs: number }> {
  const attempts: Attempt[] = [];
  let skipped: string | null = null;
  let computeMs = 0;
  for (let r = 0; r < env.repeats; r += 1) {
    if (Date.now() >= env.limits.splitDeadline) {
      skipped = "not run: the whole-evaluation time limit was reached";
      break;
    }
    const target = await sessions.live();
    if (typeof target === "string") {
      skipped = target;
      break;
    }
    const attempt = await attemptInstance(env.grader, instance, target, repeatSeed(env.seed, r), env.limits, env.runTests);
    computeMs += attempt.computeMs;
    attempts.push(attempt);
  }
  if (attempts.length === 0) return { result: notRun(instance, split, skipped ?? "not run"), computeMs };
  // A repeat that never ran counts as a zero, so skipping cannot raise the mean.
  while (attempts.length < env.repeats) attempts.push({ outcome: { score: 0, value: null, feedback: skipped ?? "not run" }, failure: skipped ?? "not run", computeMs: 0, durationMs: 0 });
  return { result: instanceResult(instance, split, attempts), computeMs };
}

/**
 * Runs `instances` as stage `stage` of split `split`. `stopAfter` (a race) sees the results
 * so far after each instance; when it says stop, the instances left are not run nor recorded.
 */
export async function runStage(
  stage: EvaluationStage,
  split: Split,
  instances: readonly TaskInstance[],
  env: StageEnv,
  stopAfter?: (results: readonly InstanceResult[]) => boolean,
): Promise<StageRun> {
  const started = Date.now();
  const sessions = new StageSessions(stage, env);
  const results: InstanceResult[] = [];
  let computeMs = 0;
  try {
    for (const instance of instances) {
      const run = await runInstance(instance, split, env, sessions);
      results.push(run.result);
      computeMs += run.computeMs;
      if (stopAfter?.(results) === true) break;
    }
  } finally {
    await sessions.close();
  }
  const score = results.length === 0 ? 0 : results.reduce((s, r) => s + r.score, 0) / results.length;
  const stderr = capTail(sessions.stderr.filter((s) => s.length > 0).join("\n--- next session ---\n"), STDERR_CAP);
  return { result: { stage, instances: results, score, durationMs: Date.now() - started, stderr }, computeMs };
}
