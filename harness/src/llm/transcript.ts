/**
 * The meta agent's transcript: every LLM call (sent, refused or failed), every workspace
 * tool call and every ctx.evaluate call, one JSON object per line in a generation's transcript.jsonl.
 */
import { z } from "zod";
import { EvaluateTranscriptEntry } from "./evaluate-entry.js";

export const TRANSCRIPT_SCHEMA_VERSION = 1;

const Message = z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() });

export const LlmTranscriptEntry = z.object({
  kind: z.literal("llm"),
  /** ISO timestamp when the call arrived at the broker. */
  at: z.iso.datetime(),
  model: z.string(),
  /** ok: answered; invalid: malformed request; refused: over budget or offline; failed: the endpoint failed. */
  outcome: z.enum(["ok", "invalid", "refused", "failed"]),
  /** The request as sent (maxTokens after clamping); null when it did not parse. */
  request: z.object({ messages: z.array(Message), temperature: z.number().optional(), maxTokens: z.number() }).nullable(),
  response: z.object({ content: z.string(), finishReason: z.string().nullable(), model: z.string() }).nullable(),
  /** The message the agent received instead of a response. */
  error: z.string().nullable(),
  failureKind: z.enum(["http", "network", "timeout", "aborted", "bad_response", "divergence"]).nullable(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** The endpoint gave no usage; the counts are chars/4 estimates. */
  usageEstimated: z.boolean(),
  /** Null when the model's price is unknown. */
  costUsd: z.number().nonnegative().nullable(),
  latencyMs: z.number().nonnegative(),
  /** HTTP attempts made (0 when the broker refused before sending). */
  attempts: z.number().int().nonnegative(),
});
export type LlmTranscriptEntry = z.infer<typeof LlmTranscriptEntry>;

export const ToolTranscriptEntry = z.object({
  kind: z.literal("tool"),
  at: z.iso.datetime(),
  name: z.enum(["list", "read", "write", "replace", "delete"]),
  path: z.string().nullable(),
  ok: z.boolean(),
  error: z.string().nullable(),
});
export type ToolTranscriptEntry = z.infer<typeof ToolTranscriptEntry>;

export const TranscriptEntry = z.discriminatedUnion("kind", [LlmTranscriptEntry, ToolTranscriptEntry, EvaluateTranscriptEntry]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** JSON lines, one entry a line, ending in a newline (empty string for no entries). */
export function serializeTranscript(entries: readonly TranscriptEntry[]): string {
  return entries.map((e) => `${JSON.stringify(e)}\n`).join("");
}

export interface TranscriptProblem {
  /** 1-based line number. */
  line: number;
  reason: string;
}

/** Reads transcript.jsonl; a bad line is reported and skipped, never fatal to the rest. */
export function parseTranscript(text: string): { entries: TranscriptEntry[]; problems: TranscriptProblem[] } {
  const entries: TranscriptEntry[] = [];
  const problems: TranscriptProblem[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      problems.push({ line: index + 1, reason: "not JSON" });
      return;
    }
    const parsed = TranscriptEntry.safeParse(json);
    if (parsed.success) entries.push(parsed.data);
    else problems.push({ line: index + 1, reason: z.prettifyError(parsed.error).slice(0, 500) });
  });
  return { entries, problems };
}
