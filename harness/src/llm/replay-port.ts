/**
 * An LlmPort that answers from a recorded transcript instead of an endpoint (`evolve replay`).
 * Calls must arrive in the recorded order with the recorded messages; the first one that does
 * not is a divergence, reported with where and how it differs, and every later call fails too
 * (after a divergence the recorded answers no longer belong to the questions).
 */
import type { ChatMessage, LlmCompletionRequest, LlmPort, LlmResult } from "./llm-port.js";
import type { LlmTranscriptEntry, TranscriptEntry } from "./transcript.js";

/** A replaying port, with what it has found so far. */
export interface ReplayPort extends LlmPort {
  /** The first divergence, or null while the replay follows the record. */
  readonly divergence: string | null;
  /** Recorded calls not served yet. */
  remaining(): number;
}

type ServedEntry = LlmTranscriptEntry & { request: NonNullable<LlmTranscriptEntry["request"]> };

/** Builds a replay port over a transcript's sent calls (refused and invalid ones never reached a port). */
export function createReplayPort(entries: readonly TranscriptEntry[], model?: string): ReplayPort {
  const calls = entries.filter(
    (e): e is ServedEntry => e.kind === "llm" && (e.outcome === "ok" || e.outcome === "failed") && e.request !== null,
  );
  let next = 0;
  let divergence: string | null = null;
  const diverge = (message: string): LlmResult => {
    divergence ??= message;
    return { ok: false, kind: "divergence", error: divergence, status: null, attempts: 0, latencyMs: 0 };
  };

  return {
    model: model ?? calls[0]?.model ?? "replay",
    get divergence() {
      return divergence;
    },
    remaining: () => calls.length - next,
    complete: async (request: LlmCompletionRequest): Promise<LlmResult> => {
      if (divergence !== null) return diverge(divergence);
      const index = next;
      const recorded = calls[index];
      if (recorded === undefined) {
        return diverge(`replay divergence at LLM call #${index + 1}: the transcript records only ${calls.length} call(s)`);
      }
      const difference = describeDifference(recorded.request, request);
      if (difference !== null) return diverge(`replay divergence at LLM call #${index + 1}: ${difference}`);
      next++;
      if (recorded.outcome === "failed" || recorded.response === null) {
        return {
          ok: false,
          kind: recorded.failureKind ?? "http",
          error: recorded.error ?? "recorded failure",
          status: null,
          attempts: recorded.attempts,
          latencyMs: 0,
        };
      }
      return {
        ok: true,
        completion: {
          content: recorded.response.content,
          toolCalls: recorded.response.toolCalls,
          finishReason: recorded.response.finishReason,
          promptTokens: recorded.promptTokens,
          completionTokens: recorded.completionTokens,
          usageEstimated: recorded.usageEstimated,
          model: recorded.response.model,
        },
        attempts: recorded.attempts,
        latencyMs: 0,
      };
    },
  };
}

// maxTokens is not compared: the broker clamps it to the budget left, which is bookkeeping,
// not what the agent asked.
function describeDifference(recorded: ServedEntry["request"], actual: LlmCompletionRequest): string | null {
  if (recorded.messages.length !== actual.messages.length) {
    return `recorded ${recorded.messages.length} message(s), got ${actual.messages.length}`;
  }
  for (let i = 0; i < recorded.messages.length; i++) {
    const want = recorded.messages[i];
    const got = actual.messages[i];
    if (want === undefined || got === undefined) continue;
    if (want.role !== got.role) return `message ${i + 1} role: recorded "${want.role}", got "${got.role}"`;
    if (want.content !== got.content) {
      const at = firstDifference(want.content, got.content);
      return `message ${i + 1} (${want.role}) content differs at character ${at}: recorded ${excerpt(want.content, at)}, got ${excerpt(got.content, at)}`;
    }
    const extra = differs(toolFields(want), toolFields(got));
    if (extra !== null) return `message ${i + 1} (${want.role}) ${extra}`;
  }
  if (recorded.temperature !== actual.temperature) {
    return `temperature: recorded ${String(recorded.temperature)}, got ${String(actual.temperature)}`;
  }
  const tools = differs({ tools: recorded.tools ?? [], toolChoice: recorded.toolChoice ?? null }, { tools: actual.tools ?? [], toolChoice: actual.toolChoice ?? null });
  return tools === null ? null : `request ${tools}`;
}

/** What a message carries besides role and content. */
function toolFields(message: ChatMessage): Record<string, unknown> {
  if (message.role === "assistant") return { toolCalls: message.toolCalls ?? [] };
  if (message.role === "tool") return { toolCallId: message.toolCallId };
  return {};
}

/** The first field whose JSON differs, in words; null when none does. */
function differs(recorded: Record<string, unknown>, actual: Record<string, unknown>): string | null {
  for (const key of Object.keys(recorded)) {
    const want = JSON.stringify(recorded[key]);
    const got = JSON.stringify(actual[key]);
    if (want !== got) {
      const at = firstDifference(want, got);
      return `${key} differ at character ${at}: recorded ${excerpt(want, at)}, got ${excerpt(got, at)}`;
    }
  }
  return null;
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function excerpt(text: string, at: number): string {
  const start = Math.max(0, at - 20);
  return JSON.stringify(`${start > 0 ? "…" : ""}${text.slice(start, at + 40)}${at + 40 < text.length ? "…" : ""}`);
}
