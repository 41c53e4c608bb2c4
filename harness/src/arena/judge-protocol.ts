/**
 * Messages between the harness and its judge worker (both trusted code; the proposals and
 * what the oracle makes of them are not), and the checks both sides share.
 */

/** Harness → worker: judge one proposal that passed the count and size caps. */
export interface JudgeJob {
  type: "judge";
  job: number;
  /** The proposal as JSON text (it passed the size cap). */
  proposal: string;
  /** The test id the instance must carry. */
  id: string;
}

/** Discards the worker decides (the rest are the harness's: caps, limits, a dead worker). */
export type WorkerDiscardCode = "schema" | "oracle_refused" | "oracle_failed" | "instance_schema";

export type JudgeResult =
  /** `instance`: the instance as instanceSchema parsed it, as JSON text. */
  | { outcome: "accepted"; instance: string; verdict: string }
  | { outcome: "discarded"; code: WorkerDiscardCode; reason: string };

/** Worker → harness. */
export type JudgeWorkerMessage =
  | { type: "ready" }
  /** The grader module did not load in the worker, or has no usable oracle. */
  | { type: "start_failed"; reason: string }
  | { type: "result"; job: number; result: JudgeResult };

/** An instance is stored in the round record: at most this large as JSON, and this deep. */
export const MAX_INSTANCE_BYTES = 256 * 1024;
export const MAX_INSTANCE_DEPTH = 64;
/** Reasons and verdicts are one line of at most this many characters. */
export const JUDGE_TEXT_CHARS = 300;

/** How deep a parsed JSON value nests (a scalar is 0), counted without recursion; stops past `limit`. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    const inner = depth + 1;
    deepest = Math.max(deepest, inner);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, inner]);
  }
  return deepest;
}
