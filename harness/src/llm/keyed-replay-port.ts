/**
 * An LlmPort that answers from a recorded transcript by what is asked, not by when: each
 * call gets the first unused recorded call whose request is the same (messages, temperature,
 * tools, tool choice; maxTokens is the broker's clamping, not the agent's question). For the
 * task agent's calls at solve time (solve-transcript.jsonl), which a replay asks in another
 * order than the run did: it may re-evaluate only the tip, after drafts whose calls come
 * first in the record. A request nothing recorded matches is a divergence, and so is every
 * call after it.
 */
import type { LlmCompletionRequest, LlmResult } from "./llm-port.js";
import type { ReplayPort } from "./replay-port.js";
import type { LlmTranscriptEntry, TranscriptEntry } from "./transcript.js";

type ServedEntry = LlmTranscriptEntry & { request: NonNullable<LlmTranscriptEntry["request"]> };

/** What a request asks, as one comparable text. */
function questionOf(request: Pick<LlmCompletionRequest, "messages" | "temperature" | "tools" | "toolChoice">): string {
  return JSON.stringify([request.messages, request.temperature ?? null, request.tools ?? [], request.toolChoice ?? null]);
}

function recordedResult(entry: ServedEntry): LlmResult {
  if (entry.outcome === "failed" || entry.response === null) {
    return { ok: false, kind: entry.failureKind ?? "http", error: entry.error ?? "recorded failure", status: null, attempts: entry.attempts, latencyMs: 0 };
  }
  return {
    ok: true,
    completion: {
      content: entry.response.content,
      toolCalls: entry.response.toolCalls,
      finishReason: entry.response.finishReason,
      promptTokens: entry.promptTokens,
      completionTokens: entry.completionTokens,
      usageEstimated: entry.usageEstimated,
      model: entry.response.model,
    },
    attempts: entry.attempts,
    latencyMs: 0,
  };
}

/** A replay port over the transcript's sent calls, matched by request. */
export function createKeyedReplayPort(entries: readonly TranscriptEntry[], model?: string): ReplayPort {
  const calls = entries.filter((e): e is ServedEntry => e.kind === "llm" && (e.outcome === "ok" || e.outcome === "failed") && e.request !== null);
  const unused = new Map<string, ServedEntry[]>();
  for (const call of calls) {
    const key = questionOf(call.request);
    unused.set(key, [...(unused.get(key) ?? []), call]);
  }
  let served = 0;
  let asked = 0;
  let divergence: string | null = null;
  return {
    model: model ?? calls[0]?.model ?? "replay",
    get divergence() {
      return divergence;
    },
    remaining: () => calls.length - served,
    complete: async (request) => {
      asked++;
      const queue = divergence === null ? unused.get(questionOf(request)) : undefined;
      const entry = queue?.shift();
      if (entry === undefined) {
        const first = request.messages.find((m) => m.role === "user")?.content ?? "";
        divergence ??= `replay divergence at solve-time LLM call #${asked}: no recorded call asks this (${calls.length} recorded, ${calls.length - served} unused; its first user message begins ${JSON.stringify(first.slice(0, 80))})`;
        return { ok: false, kind: "divergence", error: divergence, status: null, attempts: 0, latencyMs: 0 };
      }
      served++;
      return recordedResult(entry);
    },
  };
}
