/**
 * The grader interface: trusted host code in tasks/<name>/grader.ts that drives the
 * candidate through `solve` and scores what comes back. Candidate output is hostile data.
 */
import { z } from "zod";
import type { Json } from "@evolve/contract";
import type { SolveReply } from "../../../sandbox/src/index.js";
import { WireJson } from "../kernel/index.js";
import type { RunTests } from "./code-tests.js";

/** What one call of the candidate gave back: the sandbox's reply, as graders see it. */
export type { SolveReply };

/** Asks the candidate once; the evaluation enforces time limits and output caps. */
export type SolveCall = (input: Json) => Promise<SolveReply>;

export interface GradeContext {
  /** Seed for the grader's own randomness (differs per repeat). */
  readonly seed: number;
  /**
   * Runs code the grader does not trust (the candidate's answer, as source text) against the
   * grader's tests in a fresh hardened container; only the values come back, and the
   * expected ones are compared on the host (code-tests.ts). Never throws for the answer.
   * The harness always gives it; it is optional so that a grader's own unit tests may call
   * `grade(instance, solve, { seed })` without one.
   */
  readonly runTests?: RunTests;
}

export const GradeOutcome = z.object({
  /** Normalised to [0, 1], higher is better. */
  score: z.number().min(0).max(1),
  /** The task's raw metric, null when the candidate's output was unusable. */
  value: z.number().nullable(),
  feedback: z.string(),
  artifact: WireJson.optional(),
});
export type GradeOutcome = z.infer<typeof GradeOutcome>;

/** Every instance carries an id unique within its task. */
export interface TaskInstance {
  readonly id: string;
}

/** A task's trusted grader; `grade` must not throw on any candidate output. */
export interface Grader<I extends TaskInstance = TaskInstance> {
  /** Parses one instance of visible.json / heldout.json. */
  readonly instanceSchema: z.ZodType<I>;
  /** Drives the candidate through `solve` (once or an episode) and scores it. */
  grade(instance: I, solve: SolveCall, ctx: GradeContext): Promise<GradeOutcome>;
}

/** Identity helper that infers the instance type from the schema. */
export function defineGrader<I extends TaskInstance>(grader: Grader<I>): Grader<I> {
  return grader;
}

/** Byte length of a value as JSON, or null when it is not JSON-serialisable. */
export function jsonBytes(value: unknown): number | null {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : Buffer.byteLength(text, "utf8");
  } catch {
    return null;
  }
}

/** A failed reply in words, for feedback. */
export function describeFailure(reply: Extract<SolveReply, { ok: false }>): string {
  return `${reply.kind}: ${reply.reason}`;
}
