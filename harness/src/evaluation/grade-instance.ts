/**
 * One instance of one stage: the grader drives the candidate through a guarded `solve`;
 * whatever goes wrong on the candidate's side becomes a zero score with the reason.
 */
import type { Json } from "@evolve/contract";
import type { InstanceResult, Split } from "../results/index.js";
import { GradeOutcome, jsonBytes, type Grader, type SolveCall, type SolveReply, type TaskInstance } from "./grader.js";
import { capText } from "../text/index.js";
import { NO_CODE_TESTS, type RunTests } from "./code-tests.js";

/** The part of a solve session the grading needs (the sandbox's SolveSession fits). */
export interface CallTarget {
  readonly alive: boolean;
  call(input: unknown, options: { timeoutMs: number }): Promise<SolveReply>;
}

export interface GradeLimits {
  instanceTimeoutMs: number;
  /** Epoch ms after which no call may start (the split's whole-evaluation limit). */
  splitDeadline: number;
  outputCapBytes: number;
}

/** One graded attempt; `failure` is set when the candidate failed a call. */
export interface Attempt {
  outcome: GradeOutcome;
  failure: string | null;
  computeMs: number;
  durationMs: number;
}

const FEEDBACK_CAP = 2000;
const ARTIFACT_CAP_BYTES = 256 * 1024;


function errorMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Names the limit a call ran into (`hung`) or that had passed before it was made. A call is
 * given only what is left of the instance's budget (a few ms less than the limit), and that
 * figure means nothing to a user.
 */
function timeoutReason(limits: GradeLimits, boundBySplit: boolean, hung: boolean): string {
  const limit = boundBySplit ? "the whole-evaluation time limit" : `the instance time limit of ${limits.instanceTimeoutMs} ms`;
  return hung ? `no answer within ${limit}` : `${limit} was reached`;
}

/** Runs the grader once against `target`; never throws for the candidate's or the grader's faults. */
export async function attemptInstance(
  grader: Grader,
  instance: TaskInstance,
  target: CallTarget,
  seed: number,
  limits: GradeLimits,
  runTests: RunTests = NO_CODE_TESTS,
): Promise<Attempt> {
  const started = Date.now();
  const instanceDeadline = Math.min(started + limits.instanceTimeoutMs, limits.splitDeadline);
  const boundBySplit = limits.splitDeadline < started + limits.instanceTimeoutMs;
  let failure: string | null = null;
  let computeMs = 0;

  const solve: SolveCall = async (input: Json): Promise<SolveReply> => {
    if (failure !== null)
      return { ok: false, kind: "error", reason: `not asked: an earlier call failed (${failure})`, durationMs: 0 };
    const remaining = instanceDeadline - Date.now();
    if (remaining <= 0) {
      const reason = timeoutReason(limits, boundBySplit, false);
      failure = `timeout: ${reason}`;
      return { ok: false, kind: "timeout", reason, durationMs: 0 };
    }
    const answer = await target.call(input, { timeoutMs: remaining });
    const reply = answer.ok || answer.kind !== "timeout" ? answer : { ...answer, reason: timeoutReason(limits, boundBySplit, true) };
    computeMs += reply.durationMs;
    if (!reply.ok) {
      failure = `${reply.kind}: ${reply.reason}`;
      return reply;
    }
    const bytes = jsonBytes(reply.value);
    if (bytes === null || bytes > limits.outputCapBytes) {
      failure =
        bytes === null
          ? "invalid output: not JSON-serialisable"
          : `invalid output: ${bytes} bytes exceeds the cap of ${limits.outputCapBytes} bytes`;
      return { ok: false, kind: "error", reason: failure, durationMs: reply.durationMs };
    }
    return reply;
  };

  let outcome: GradeOutcome;
  try {
    const parsed = GradeOutcome.safeParse(await grader.grade(instance, solve, { seed, runTests }));
    outcome = parsed.success
      ? parsed.data
      : { score: 0, value: null, feedback: `grader error: bad outcome (${parsed.error.issues[0]?.message ?? "?"})` };
    if (!parsed.success) failure ??= "grader error: the grader returned a malformed outcome";
  } catch (cause) {
    outcome = { score: 0, value: null, feedback: `grader error: ${errorMessage(cause)}` };
    failure ??= `grader error: ${errorMessage(cause)}`;
  }
  if (failure !== null) outcome = { ...outcome, score: 0, value: null, feedback: outcome.feedback || failure };
  // A grader signals unusable output by a null value; that is the instance's error.
  else if (outcome.value === null) failure = `invalid output: ${outcome.feedback}`;
  return { outcome, failure, computeMs, durationMs: Date.now() - started };
}

/** Folds the attempts (repeats) of one instance into its result. */
export function instanceResult(instance: TaskInstance, split: Split, attempts: readonly Attempt[]): InstanceResult {
  const scores = attempts.map((a) => a.outcome.score);
  const mean = scores.length === 0 ? 0 : scores.reduce((s, x) => s + x, 0) / scores.length;
  const values = attempts.map((a) => a.outcome.value);
  const value = values.length > 0 && values.every((v) => v !== null)
    ? (values as number[]).reduce((s, x) => s + x, 0) / values.length
    : null;
  const first = attempts[0];
  let feedback = first?.outcome.feedback ?? "";
  if (attempts.length > 1) {
    const sd = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / scores.length);
    feedback = `${feedback} [${attempts.length} repeats: mean ${mean.toFixed(4)}, sd ${sd.toFixed(4)}]`;
  }
  const error = attempts.find((a) => a.failure !== null)?.failure ?? null;
  const artifact = first?.outcome.artifact;
  const artifactBytes = artifact === undefined ? null : jsonBytes(artifact);
  return {
    id: instance.id,
    split,
    score: mean,
    value,
    feedback: capText(feedback, FEEDBACK_CAP, inAll),
    error: error === null ? null : capText(error, FEEDBACK_CAP, inAll),
    durationMs: attempts.reduce((s, a) => s + a.durationMs, 0),
    ...(attempts.length > 1 ? { repeats: scores } : {}),
    ...(artifact !== undefined && artifactBytes !== null && artifactBytes <= ARTIFACT_CAP_BYTES ? { artifact } : {}),
  };
}

/** The result of an instance that never ran (time or restarts used up). */
export function notRun(instance: TaskInstance, split: Split, reason: string): InstanceResult {
  return { id: instance.id, split, score: 0, value: null, feedback: reason, error: reason, durationMs: 0 };
}

function inAll(length: number): string {
  return `… (${length} characters in all)`;
}
