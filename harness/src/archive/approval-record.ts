/**
 * The archive's records of supervised autonomy: a child's approval request (in its
 * generation.json) and the decision on it (its own file, decisions/<gen>.json). The request
 * is written once with the generation and never rewritten; the decision comes later, from
 * another process (`evolve approve`, `evolve reject`) or from the run's timeout, and the
 * reader joins the two.
 */
import { z } from "zod";
import { GenerationId, Timestamp } from "./generation-id.js";

export const DECISION_SCHEMA_VERSION = 1;

/** Characters of a note or reason a person gives. */
export const MAX_NOTE_CHARS = 2_000;

/** decisions/<gen>.json: who decided what on a pending child, and when. */
export const ApprovalDecision = z.object({
  schemaVersion: z.literal(DECISION_SCHEMA_VERSION),
  generation: GenerationId,
  verdict: z.enum(["approved", "rejected"]),
  /** The OS user who ran `evolve approve`/`reject`; "timeout" when nobody answered in time. */
  by: z.string().min(1).max(200),
  at: Timestamp,
  /** `--note` of an approval, `--reason` of a rejection, the timeout's words; null: none given. */
  note: z.string().max(MAX_NOTE_CHARS).nullable(),
  /** Rejected because the request's deadline passed unanswered. */
  timedOut: z.boolean(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** A child's approval request: why a person must look, until when, and (joined on read) the decision. */
export const GenerationApproval = z.object({
  /** The approval rules it tripped, in words ("changes meta/llm.ts (approval path meta/**)"). */
  reasons: z.array(z.string().min(1)).min(1),
  /** After this the request is rejected unanswered (approval.timeoutMinutes); null: it waits. */
  deadline: Timestamp.nullable(),
  /** Always null in generation.json; readers fill it from decisions/<gen>.json. */
  decision: ApprovalDecision.nullable(),
});
export type GenerationApproval = z.infer<typeof GenerationApproval>;
