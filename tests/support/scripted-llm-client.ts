/**
 * Scripted LLM replies at the protocol level: an `onLlm` callback for the sandbox that
 * answers the agent's requests from a script and records each request. The one shared place
 * for scripted replies below the HTTP layer (scripted-openai-server.ts is the HTTP one).
 *
 *   const llm = scriptedLlmClient(["first reply", (req) => `second, after ${req.messages.length} messages`]);
 *   await runImprove({ ..., init: { ..., llmAvailable: true }, onLlm: llm.onLlm });
 *   llm.requests[1]?.messages.at(-1)?.content  // what the agent said after the first reply
 *
 * Requests are parsed with the wire schema, as the broker does; a malformed one is refused
 * with code "invalid_request". When the script runs out the call is refused with
 * "scripted client: script exhausted" (code "endpoint_failed").
 */
import { WireLlmRequest, type WireJson, type WireLlmAnswer } from "../../harness/src/kernel/index.js";

/** One scripted step: a reply text, or a function of the request (and its 0-based index). */
export type ScriptedLlmStep = string | ((request: WireLlmRequest, index: number) => string);

/** The callback to hand to the sandbox plus what it received. */
export interface ScriptedLlmClient {
  onLlm(request: unknown): Promise<WireLlmAnswer>;
  /** Every well-formed request, in order, as the host received it. */
  readonly requests: WireLlmRequest[];
}

/** Token count estimate (chars / 4), as a real server would report something similar. */
function estimate(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A client answering request i with script step i. */
export function scriptedLlmClient(script: readonly ScriptedLlmStep[]): ScriptedLlmClient {
  const requests: WireLlmRequest[] = [];
  return {
    requests,
    async onLlm(raw) {
      const parsed = WireLlmRequest.safeParse(raw);
      if (!parsed.success) return { ok: false, code: "invalid_request", error: `malformed LLM request: ${parsed.error.message}` };
      const request = parsed.data;
      const index = requests.length;
      requests.push(structuredClone(request));
      const step = script[index];
      if (step === undefined) return { ok: false, code: "endpoint_failed", error: "scripted client: script exhausted" };
      const content = typeof step === "string" ? step : step(request, index);
      return {
        ok: true,
        response: {
          content,
          toolCalls: [],
          finishReason: "stop",
          promptTokens: estimate(request.messages.map((m) => m.content).join("\n")),
          completionTokens: estimate(content),
        },
      };
    },
  };
}
