/**
 * The one real LlmPort, over the `openai` package: the only file in the project that imports
 * it. Any OpenAI-compatible endpoint works (OpenAI, vLLM, Ollama, llama.cpp server).
 * The client's own retries are off so every retry is ours: visible, bounded, counted.
 * The package is loaded on the first call, so an offline run never pays its memory (~15 MB).
 */
import type OpenAI from "openai";
import { z } from "zod";
import { finishReasonOf, type WireLlmMessage, type WireLlmToolCall, type WireLlmToolChoice } from "../kernel/index.js";
import type { LlmSetup } from "./llm-config.js";
import type { LlmCallOptions, LlmCompletion, LlmCompletionRequest, LlmFailureKind, LlmPort, LlmResult } from "./llm-port.js";
import { backoffDelayMs, isRetryableStatus, parseRetryAfter, retryAfterCap, type RetryPolicy } from "./retry-policy.js";
import { redactAll } from "./secret.js";
import { capText } from "../text/index.js";
import { estimatePromptTokens, estimateTokens } from "./token-estimate.js";

const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
// openai requires some key; keyless local servers ignore it.
const PLACEHOLDER_KEY = "no-key";
const MAX_ERROR_CHARS = 500;

/** Injectable clock, sleep and randomness so retries are testable without real waits. */
export interface OpenAiPortDeps {
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

// The endpoint is configured by the user but still a network peer: parse what it returns.
const ToolCallShape = z
  .object({
    id: z.string().min(1).optional(),
    type: z.string().optional(),
    function: z
      .object({
        name: z.string(),
        // Some local servers send the arguments as an object rather than JSON text.
        arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullable().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

const ChatResponse = z
  .object({
    model: z.string().optional(),
    choices: z
      .array(
        z
          .object({
            message: z
              .object({
                content: z.string().nullable().optional(),
                tool_calls: z.array(ToolCallShape).nullable().optional(),
                // Reasoning models' thoughts: vLLM's and DeepSeek's `reasoning_content`, vLLM's newer and
                // OpenRouter's `reasoning` (https://docs.vllm.ai/en/stable/features/reasoning_outputs/).
                reasoning_content: z.unknown().optional(),
                reasoning: z.unknown().optional(),
              })
              .loose(),
            finish_reason: z.string().nullable().optional(),
          })
          .loose(),
      )
      .min(1),
    usage: z
      .object({
        prompt_tokens: z.number().int().nonnegative(),
        completion_tokens: z.number().int().nonnegative(),
        completion_tokens_details: z.object({ reasoning_tokens: z.number().int().nonnegative().optional() }).loose().nullable().optional(),
      })
      .loose()
      .nullable()
      .optional(),
  })
  .loose();

type Attempt =
  | { ok: true; completion: LlmCompletion }
  | { ok: false; kind: LlmFailureKind; error: string; status: number | null; retryable: boolean; retryAfterMs: number | null };

/** Builds the adapter for an available setup. */
export function createOpenAiPort(setup: Extract<LlmSetup, { available: true }>, deps: OpenAiPortDeps = {}): LlmPort {
  return { model: setup.model, complete: withRetries(singleAttempt(setup, deps.now ?? Date.now), setup, deps) };
}

/**
 * One request through the openai client (made on first use), its failure classified. It
 * learns the endpoint's token parameter: newer OpenAI models reject max_tokens, older
 * compatible servers do not know the new name.
 */
function singleAttempt(setup: Extract<LlmSetup, { available: true }>, now: () => number): (request: LlmCompletionRequest, signal: AbortSignal | undefined) => Promise<Attempt> {
  const secrets = setup.apiKey === null ? [] : [setup.apiKey.reveal()];
  const clean = (text: string): string => capText(redactAll(text, secrets), MAX_ERROR_CHARS, () => "… [truncated]");
  let client: OpenAI | null = null;
  const connect = (Client: typeof OpenAI): OpenAI =>
    new Client({
      apiKey: setup.apiKey?.reveal() ?? PLACEHOLDER_KEY,
      baseURL: setup.baseURL ?? OPENAI_DEFAULT_BASE_URL,
      timeout: setup.timeoutMs,
      maxRetries: 0,
      // OPENAI_LOG=debug in the environment would otherwise print requests.
      logLevel: "off",
    });
  let tokenParam: "max_tokens" | "max_completion_tokens" = "max_tokens";
  return async (request, signal) => {
    const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: setup.model,
      messages: request.messages.map(toOpenAiMessage),
      [tokenParam]: request.maxTokens,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: request.tools.map(toOpenAiTool) }),
      ...(request.toolChoice === undefined ? {} : { tool_choice: toOpenAiToolChoice(request.toolChoice) }),
    };
    const Client = await loadClientClass();
    try {
      const openai = (client ??= connect(Client));
      const raw: unknown = await withCallSignal(signal, (own) => openai.chat.completions.create(body, own === undefined ? {} : { signal: own }));
      return toCompletion(raw, request, setup.model, clean);
    } catch (err) {
      const failure = classify(err, Client, setup.timeoutMs, clean, now());
      if (tokenParam === "max_tokens" && failure.status === 400 && /max_completion_tokens/.test(failure.error)) {
        tokenParam = "max_completion_tokens";
        return { ...failure, retryable: true, retryAfterMs: 0 };
      }
      // Servers without tool calling answer 400 to `tools` (vLLM without a tool parser, Ollama
      // for a model without tools, llama.cpp without --jinja): the agent learns it by its code.
      if (failure.status === 400 && request.tools !== undefined && request.tools.length > 0) {
        return { ...failure, kind: "tools_unsupported", error: `the endpoint refused a request with tools (${failure.error}); it may not support tool calling: retry without tools` };
      }
      return failure;
    }
  };
}

/**
 * Runs one request under a signal of its own, aborted with the caller's. The openai client
 * adds an abort listener to the signal it is given and never removes it
 * (openai/openai-node#1811): handed a generation's or a run's signal, every call would leave
 * one behind, holding the call's controller, and Node warns past ten. The link is removed when
 * the request ends, so the caller's signal keeps none.
 */
async function withCallSignal<T>(signal: AbortSignal | undefined, request: (own: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (signal === undefined) return request(undefined);
  const own = new AbortController();
  const forward = (): void => own.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
  try {
    return await request(own.signal);
  } finally {
    signal.removeEventListener("abort", forward);
  }
}

/** `attemptOnce` retried with backoff while the failure is retryable, the attempts last and the wait fits the call's deadline. */
function withRetries(
  attemptOnce: (request: LlmCompletionRequest, signal: AbortSignal | undefined) => Promise<Attempt>,
  setup: Extract<LlmSetup, { available: true }>,
  deps: OpenAiPortDeps,
): LlmPort["complete"] {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? abortableSleep;
  return async (request: LlmCompletionRequest, options: LlmCallOptions = {}): Promise<LlmResult> => {
    const started = now();
    const { signal } = options;
    let attempts = 0;
    for (;;) {
      attempts++;
      const attempt = await attemptOnce(request, signal);
      if (attempt.ok) return { ok: true, completion: attempt.completion, attempts, latencyMs: now() - started };
      const last = attempts >= setup.retry.maxAttempts || !attempt.retryable || signal?.aborted === true;
      const delay = backoffDelayMs(attempts, setup.retry, random, attempt.retryAfterMs);
      const why = last ? null : waitRefusal(attempt.retryAfterMs, delay, now(), setup.retry, options.deadline);
      if (!last && why === null) {
        try {
          await sleep(delay, signal);
          continue;
        } catch {
          return { ok: false, kind: "aborted", error: "LLM call aborted", status: null, attempts, latencyMs: now() - started };
        }
      }
      const error = `LLM call failed after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${attempt.error}${why === null ? "" : `; ${why}`}`;
      return { ok: false, kind: attempt.kind, error, status: attempt.status, attempts, latencyMs: now() - started };
    }
  };
}

/** Why the wait before a retry is not worth starting (a retry-after too long, or past the deadline); null when it is. */
function waitRefusal(retryAfterMs: number | null, delay: number, now: number, policy: RetryPolicy, deadline: number | undefined): string | null {
  if (retryAfterMs !== null && retryAfterMs > retryAfterCap(policy)) {
    return `the endpoint asks to retry after ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${Math.round(retryAfterCap(policy) / 1000)} s evolve waits`;
  }
  if (deadline !== undefined && now + delay > deadline) {
    return `${retryAfterMs !== null ? `the endpoint asks to retry after ${Math.ceil(retryAfterMs / 1000)} s` : `the next retry (in ${Math.ceil(delay / 1000)} s)`}, past this call's deadline`;
  }
  return null;
}

/**
 * One reply's size at most: its text, reasoning and call arguments together (a reply of 4,096
 * tokens is some 30,000 characters; reasoning models write more, never this much), and its
 * calls. Past them the reply is refused, never forwarded to the agent or recorded whole: the
 * endpoint is the user's, but still a network peer.
 */
export const MAX_REPLY_CHARS = 1_048_576;
export const MAX_REPLY_TOOL_CALLS = 128;

/** Why a reply is too big to take, checked before it is parsed (a million calls must not be walked by the schema); null when it is not. */
function oversized(raw: unknown): string | null {
  const choices = typeof raw === "object" && raw !== null ? (raw as { choices?: unknown }).choices : undefined;
  const message = Array.isArray(choices) ? (choices[0] as { message?: unknown } | undefined)?.message : undefined;
  if (typeof message !== "object" || message === null) return null;
  const { content, tool_calls: calls, reasoning_content: thought, reasoning } = message as Record<string, unknown>;
  if (Array.isArray(calls) && calls.length > MAX_REPLY_TOOL_CALLS) return `endpoint returned ${calls.length} tool calls in one reply (at most ${MAX_REPLY_TOOL_CALLS} are taken)`;
  let chars = [content, thought, reasoning].reduce<number>((n, v) => n + (typeof v === "string" ? v.length : 0), 0);
  for (const call of Array.isArray(calls) ? calls : []) {
    const args = (call as { function?: { arguments?: unknown } } | null)?.function?.arguments;
    chars += typeof args === "string" ? args.length : 0;
  }
  return chars > MAX_REPLY_CHARS ? `endpoint returned ${chars} characters in one reply (at most ${MAX_REPLY_CHARS} are taken)` : null;
}

function toCompletion(raw: unknown, request: LlmCompletionRequest, model: string, clean: (s: string) => string): Attempt {
  const tooBig = oversized(raw);
  if (tooBig !== null) return badResponse(tooBig);
  const parsed = ChatResponse.safeParse(raw);
  if (!parsed.success) {
    return badResponse(clean(`endpoint returned an unexpected response: ${z.prettifyError(parsed.error)}`));
  }
  const choice = parsed.data.choices[0];
  const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call, i): WireLlmToolCall[] => {
    if (call.function === undefined) return [];
    const args = call.function.arguments;
    return [{ id: call.id ?? `call_${i}`, name: call.function.name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) }];
  });
  const reasoning = reasoningOf(choice?.message);
  // A reasoning model that thought its whole budget away answers with no content: that is an (empty) answer.
  const content = choice?.message.content ?? (toolCalls.length > 0 || reasoning !== null ? "" : undefined);
  if (typeof content !== "string") {
    return badResponse(`endpoint returned no text content and no tool call (finish_reason ${String(choice?.finish_reason ?? null)})`);
  }
  const usage = parsed.data.usage;
  const completionChars = content + (reasoning ?? "") + toolCalls.map((c) => c.name + c.arguments).join("");
  const reasoningTokens = usage?.completion_tokens_details?.reasoning_tokens ?? (reasoning === null ? undefined : estimateTokens(reasoning));
  return {
    ok: true,
    completion: {
      content,
      toolCalls,
      finishReason: finishReasonOf(choice?.finish_reason),
      promptTokens: usage?.prompt_tokens ?? estimatePromptTokens(request),
      completionTokens: usage?.completion_tokens ?? estimateTokens(completionChars),
      usageEstimated: usage === undefined || usage === null,
      model: parsed.data.model ?? model,
      ...(reasoning === null ? {} : { reasoning }),
      ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    },
  };
}

/** The reasoning text beside the content, under either name; null when there is none. */
function reasoningOf(message: { reasoning_content?: unknown; reasoning?: unknown } | undefined): string | null {
  const value = message?.reasoning_content ?? message?.reasoning;
  return typeof value === "string" && value !== "" ? value : null;
}

// The wire's camelCase shapes as the Chat Completions API spells them.
function toOpenAiMessage(message: WireLlmMessage): OpenAI.Chat.ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant": {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        // OpenAI takes null content beside tool calls; some compatible servers reject "".
        content: message.content === "" ? null : message.content,
        tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
      };
    }
  }
}

function toOpenAiTool(tool: NonNullable<LlmCompletionRequest["tools"]>[number]): OpenAI.Chat.ChatCompletionFunctionTool {
  return {
    type: "function",
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
    },
  };
}

function toOpenAiToolChoice(choice: WireLlmToolChoice): OpenAI.Chat.ChatCompletionToolChoiceOption {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}

function badResponse(error: string): Attempt {
  return { ok: false, kind: "bad_response", error, status: null, retryable: false, retryAfterMs: null };
}

let clientClass: Promise<typeof OpenAI> | null = null;
function loadClientClass(): Promise<typeof OpenAI> {
  clientClass ??= import("openai").then((m) => m.default);
  return clientClass;
}

function classify(err: unknown, Sdk: typeof OpenAI, timeoutMs: number, clean: (s: string) => string, now: number): Extract<Attempt, { ok: false }> {
  const base = { ok: false as const, status: null, retryAfterMs: null };
  // Order matters: the timeout and abort errors are subclasses of APIConnectionError / APIError.
  if (err instanceof Sdk.APIUserAbortError) return { ...base, kind: "aborted", error: "aborted", retryable: false };
  if (err instanceof Sdk.APIConnectionTimeoutError) {
    return { ...base, kind: "timeout", error: `timed out after ${timeoutMs} ms`, retryable: true };
  }
  if (err instanceof Sdk.APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return { ...base, kind: "network", error: clean(`network error (${err.message}${cause})`), retryable: true };
  }
  if (err instanceof Sdk.APIError && typeof err.status === "number") {
    const retryAfterMs = parseRetryAfter(err.headers?.get("retry-after"), now);
    return {
      ok: false,
      kind: "http",
      status: err.status,
      error: clean(`HTTP ${err.status}: ${err.message}`),
      retryable: isRetryableStatus(err.status),
      retryAfterMs,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { ...base, kind: "bad_response", error: clean(`unexpected client error: ${message}`), retryable: false };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(new Error("aborted"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
