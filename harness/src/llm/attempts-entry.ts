/**
 * The attempts an improve request carried (ImproveRequest.attempts), as its generation's
 * transcript keeps them: the first line of a transcript that had any, so a person reads what
 * the meta agent was told was already tried before its calls and edits.
 */
import { z } from "zod";

/** One attempt as sent (the contract's `Attempt`, harness/src/contract/evolve-contract.d.ts). */
export const AttemptView = z.strictObject({
  id: z.string(),
  parent: z.string(),
  relation: z.enum(["sibling", "parent_sibling", "cousin"]),
  summary: z.string(),
  outcome: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("valid"), score: z.number(), delta: z.number().nullable() }),
    z.strictObject({ kind: z.literal("stopped"), evaluated: z.number().int().nonnegative(), of: z.number().int().nonnegative(), target: z.number().nullable() }),
    z.strictObject({ kind: z.literal("invalid"), stage: z.string(), code: z.string() }),
    z.strictObject({ kind: z.literal("duplicate"), of: z.string() }),
  ]),
});
export type AttemptView = z.infer<typeof AttemptView>;

export const AttemptsTranscriptEntry = z.object({
  kind: z.literal("attempts"),
  /** ISO timestamp when the request was built. */
  at: z.iso.datetime(),
  attempts: z.array(AttemptView).max(64),
});
export type AttemptsTranscriptEntry = z.infer<typeof AttemptsTranscriptEntry>;
