/**
 * The port between the broker and a chat model. One real adapter (openai-port.ts, over the
 * `openai` package) and one replay adapter (replay-port.ts). Failures are values: an endpoint
 * that keeps answering 500 is an expected outcome the broker records, not a harness crash.
 * Requests and completions are the wire types (harness/src/kernel/llm-wire.ts), after the broker's checks.
 */
import { z } from "zod";
import type { WireLlmMessage, WireLlmRequest, WireLlmResponse } from "../kernel/index.js";

export type ChatMessage = WireLlmMessage;

/** A request the broker has already validated and clamped. */
export type LlmCompletionRequest = Omit<WireLlmRequest, "maxTokens"> & { maxTokens: number };

export type LlmCompletion = WireLlmResponse & {
  /** True when the endpoint reported no usage and the counts are chars/4 estimates. */
  usageEstimated: boolean;
  /** The model the endpoint says answered (may differ from the one asked for). */
  model: string;
  /** A reasoning model's thoughts beside the content (`reasoning_content` or `reasoning`), when sent; never shown to the agent. */
  reasoning?: string;
  /** Tokens the endpoint says went to reasoning (inside completionTokens), or a chars/4 estimate of `reasoning`. */
  reasoningTokens?: number;
};

/** Why a port gave no completion; tools_unsupported: the endpoint answered HTTP 400 to a request that carried tools. */
export const LlmFailureKind = z.enum(["http", "network", "timeout", "aborted", "bad_response", "divergence", "tools_unsupported"]);
export type LlmFailureKind = z.infer<typeof LlmFailureKind>;

export type LlmResult =
  | { ok: true; completion: LlmCompletion; attempts: number; latencyMs: number }
  | {
      ok: false;
      kind: LlmFailureKind;
      /** Already free of credentials; safe to show to the agent and to record. */
      error: string;
      /** HTTP status of the last attempt, when there was one. */
      status: number | null;
      attempts: number;
      latencyMs: number;
    };

export interface LlmCallOptions {
  signal?: AbortSignal;
  /** Epoch ms after which no retry is started (a retry-after past it fails the call at once, saying so). */
  deadline?: number;
}

/** A chat model the broker can call. */
export interface LlmPort {
  /** The model name requests are sent for. */
  readonly model: string;
  /** One chat completion, retries included; never rejects for endpoint failures. */
  complete(request: LlmCompletionRequest, options?: LlmCallOptions): Promise<LlmResult>;
}
