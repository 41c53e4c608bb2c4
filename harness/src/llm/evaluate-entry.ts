/**
 * A meta agent's ctx.evaluate call as its generation's transcript keeps it: what was asked,
 * the answer the agent got, what it cost (time per step, containers). Refused calls are
 * recorded too, up to a cap, so an agent that calls in a loop cannot grow the transcript.
 */
import { z } from "zod";

const Ms = z.number().nonnegative();

export const EvaluateTranscriptEntry = z.object({
  kind: z.literal("evaluate"),
  /** ISO timestamp when the call reached the host. */
  at: z.iso.datetime(),
  /** What was asked, in short ("stage1", "visible", "3 ids: a, b, c"); null when the request did not parse. */
  request: z.string().nullable(),
  /** The EvaluateResult the agent received (refused, invalid or evaluated), as sent. */
  result: z.looseObject({ outcome: z.enum(["refused", "invalid", "evaluated"]), remaining: z.number().int().nonnegative() }),
  /** sha256 of the draft that was checked; null when none was taken out. */
  snapshotHash: z.string().nullable(),
  durationMs: Ms,
  /** Time to take the workspace out, to check it, and to evaluate it (the steps that ran). */
  timings: z.object({ extract: Ms, checks: Ms, evaluate: Ms }).partial(),
  /** Containers started for this call (the import check's and the evaluation's). */
  containers: z.number().int().nonnegative(),
});
export type EvaluateTranscriptEntry = z.infer<typeof EvaluateTranscriptEntry>;
