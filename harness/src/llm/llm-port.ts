/**
 * The port between the broker and a chat model. One real adapter (openai-port.ts, over the
 * `openai` package) and one replay adapter (replay-port.ts). Failures are values: an endpoint
 * that keeps answering 500 is an expected outcome the broker records, not a harness crash.
 */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A request the broker has already validated and clamped. */
export interface LlmCompletionRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens: number;
}

export interface LlmCompletion {
  content: string;
  finishReason: string | null;
  promptTokens: number;
  completionTokens: number;
  /** True when the endpoint reported no usage and the counts are chars/4 estimates. */
  usageEstimated: boolean;
  /** The model the endpoint says answered (may differ from the one asked for). */
  model: string;
}

export type LlmFailureKind = "http" | "network" | "timeout" | "aborted" | "bad_response" | "divergence";

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
}

/** A chat model the broker can call. */
export interface LlmPort {
  /** The model name requests are sent for. */
  readonly model: string;
  /** One chat completion, retries included; never rejects for endpoint failures. */
  complete(request: LlmCompletionRequest, options?: LlmCallOptions): Promise<LlmResult>;
}
