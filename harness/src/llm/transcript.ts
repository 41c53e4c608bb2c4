/**
 * The meta agent's transcript: the attempts its request listed, every LLM call (sent, refused
 * or failed), every workspace tool call and every ctx.evaluate call, one JSON object per line in a generation's
 * transcript.jsonl. A call's request and response are the wire types (harness/src/kernel/llm-wire.ts),
 * so the model's tool calls and the agent's tool results are recorded as the agent sent and
 * received them.
 */
import { z } from "zod";
import { EvaluateTranscriptEntry } from "./evaluate-entry.js";
import { AttemptsTranscriptEntry } from "./attempts-entry.js";
import { LlmFailureKind } from "./llm-port.js";
import { finishReasonOf, LlmErrorCode, WireLlmRequestFields, WireLlmResponse } from "../kernel/index.js";

/** 2: tool calls, tool messages and tools in requests; toolCalls and a closed finishReason in responses; the agent's error code. Version 1 lines still read. */
export const TRANSCRIPT_SCHEMA_VERSION = 2;

/** The request as sent: maxTokens after clamping. */
const SentRequest = WireLlmRequestFields.extend({ maxTokens: z.number() });

/** Characters of a reply's reasoning kept in the transcript at most (a reasoning model can think at length). */
export const MAX_REASONING_CHARS = 65_536;

/**
 * The answer as the agent got it, and the model that gave it (version 1 lines have no tool
 * calls and a raw finish reason); `reasoning`, when the endpoint sent any, is kept here (capped)
 * though the agent never sees it, so a reply that thought its budget away is not an empty line.
 */
const RecordedResponse = z.object({
  content: WireLlmResponse.shape.content,
  toolCalls: WireLlmResponse.shape.toolCalls.default([]),
  finishReason: z.preprocess(finishReasonOf, WireLlmResponse.shape.finishReason),
  model: z.string(),
  reasoning: z.string().max(MAX_REASONING_CHARS + 100).optional(),
});

export const LlmTranscriptEntry = z.object({
  kind: z.literal("llm"),
  /** ISO timestamp when the call arrived at the broker. */
  at: z.iso.datetime(),
  model: z.string(),
  /** ok: answered; invalid: malformed request; refused: over budget or offline; failed: the endpoint failed. */
  outcome: z.enum(["ok", "invalid", "refused", "failed"]),
  /** The request as sent (maxTokens after clamping); null when it did not parse. */
  request: SentRequest.nullable(),
  response: RecordedResponse.nullable(),
  /** The message the agent received instead of a response. */
  error: z.string().nullable(),
  /** The code the agent's call rejected with; null when it was answered. */
  code: LlmErrorCode.nullable().default(null),
  failureKind: LlmFailureKind.nullable(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** The endpoint gave no usage; the counts are chars/4 estimates. */
  usageEstimated: z.boolean(),
  /** Of completionTokens, those that went to reasoning (the endpoint's count, or a chars/4 estimate); absent when none. */
  reasoningTokens: z.number().int().nonnegative().optional(),
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

export const TranscriptEntry = z.discriminatedUnion("kind", [LlmTranscriptEntry, ToolTranscriptEntry, EvaluateTranscriptEntry, AttemptsTranscriptEntry]);
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
