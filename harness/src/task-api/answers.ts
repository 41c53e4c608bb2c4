/**
 * Helpers for the part of a grader that reads the candidate's answer. The answer is hostile
 * data: any JSON value at all, of any shape, up to the output cap. These never throw on it.
 */
import type { z } from "zod";
import { describeFailure, type GradeOutcome, type SolveReply } from "../evaluation/index.js";
import { capText } from "../text/index.js";

/** A checked answer, or why it is unusable (one short line, fit for feedback). */
export type AnswerCheck<T> = { ok: true; value: T } | { ok: false; reason: string };

const REASON_CAP = 200;

/** At most `max` characters of a value as JSON, for feedback; never throws. */
export function quote(value: unknown, max = 60): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = "(not JSON)";
  }
  return capText(text, max);
}

/**
 * Parses a hostile answer with a zod schema. The reason names the first problem and where
 * it is (`circles.3: expected number`), and is capped so a huge answer cannot flood feedback.
 */
export function parseAnswer<T>(schema: z.ZodType<T>, value: unknown): AnswerCheck<T> {
  let parsed;
  try {
    parsed = schema.safeParse(value);
  } catch (cause) {
    // A refinement written by the grader's author may throw on shapes they did not expect.
    return { ok: false, reason: `unreadable answer (${cause instanceof Error ? cause.message : String(cause)})`.slice(0, REASON_CAP) };
  }
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "answer" : issue.path.map(String).join(".");
  return { ok: false, reason: `${where}: ${issue?.message ?? "does not match"}`.slice(0, REASON_CAP) };
}

/** The outcome of an unusable answer: score 0, no value, the reason as feedback. */
export function zeroScore(feedback: string): GradeOutcome {
  return { score: 0, value: null, feedback };
}

/** The outcome of a call that got no answer (timeout, crash, protocol violation). */
export function noAnswer(reply: Extract<SolveReply, { ok: false }>): GradeOutcome {
  return zeroScore(`no answer: ${describeFailure(reply)}`);
}
