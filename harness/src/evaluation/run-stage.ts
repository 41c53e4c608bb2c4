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
  const stderr: string[] = [];
  const results: InstanceResult[] = [];
  let session: StageSession | null = null;
  let opened = 0;
  let computeMs = 0;

  const closeSession = async (): Promise<void> => {
    if (session === null) return;
    const closing = session;
    session = null;
    stderr.push((await closing.close()).stderr);
  };

  // Returns a live session, or the reason none may be opened any more.
  const liveSession = async (): Promise<StageSession | string> => {
    if (session !== null && session.alive) return session;
    await closeSession();
    if (opened > env.maxRestarts)
      return `not run: the candidate's session failed ${opened} times in this stage (restart limit ${env.maxRestarts})`;
    opened += 1;
    session = await env.open(stage, env.limits.splitDeadline);
    return session;
  };

  try {
    for (const instance of instances) {
      const attempts: Attempt[] = [];
      let skipped: string | null = null;
      for (let r = 0; r < env.repeats; r += 1) {
        if (Date.now() >= env.limits.splitDeadline) {
          skipped = "not run: the whole-evaluation time limit was reached";
          break;
        }
        const target = await liveSession();
        if (typeof target === "string") {
          skipped = target;
          break;
        }
        const attempt = await attemptInstance(env.grader, instance, target, repeatSeed(env.seed, r), env.limits, env.runTests);
        computeMs += attempt.computeMs;
        attempts.push(attempt);
      }
      if (attempts.length === 0) results.push(notRun(instance, split, skipped ?? "not run"));
      else {
        // A repeat that never ran counts as a zero, so skipping cannot raise the mean.
        while (attempts.length < env.repeats)
          attempts.push({
            outcome: { score: 0, value: null, feedback: skipped ?? "not run" },
            failure: skipped ?? "not run",
            computeMs: 0,
            durationMs: 0,
          });
        results.push(instanceResult(instance, split, attempts));
      }
      if (stopAfter?.(results) === true) break;
    }
  } finally {
    await closeSession();
  }
  const score = results.length === 0 ? 0 : results.reduce((s, r) => s + r.score, 0) / results.length;
  return {
    result: {
      stage,
      instances: results,
      score,
      durationMs: Date.now() - started,
      stderr: capTail(stderr.filter((s) => s.length > 0).join("\n--- next session ---\n"), STDERR_CAP),
    },
    computeMs,
  };
}
