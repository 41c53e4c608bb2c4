/**
 * The LLM broker of one generation (or one evaluation): what the evolution loop hands to the
 * sandbox as `onLlm` / `onTool`. It parses the agent's untrusted request, enforces the
 * generation and run budgets before anything is sent, calls the port, and records every call.
 * Every outcome the agent causes or the endpoint gives is an answer (a response or a refusal
 * with a code and a message that says plainly why); it never throws for them.
 */
import type { ToolMessage } from "../kernel/index.js";
import type { LlmErrorCode, WireLlmAnswer } from "../kernel/index.js";
import { EvolveError } from "../kernel/index.js";
import { DEFAULT_REQUEST_CAPS, parseAgentRequest, type ParsedAgentRequest, type RequestCaps } from "./agent-request.js";
import { BudgetLedger, type BudgetLimits, type Reservation } from "./budget-ledger.js";
import type { LlmCompletionRequest, LlmFailureKind, LlmPort } from "./llm-port.js";
import { costUsd, type TokenPrice } from "./pricing.js";
import { redactAll } from "./secret.js";
import { MAX_REASONING_CHARS, ToolTranscriptEntry, type LlmTranscriptEntry, type TranscriptEntry } from "./transcript.js";

/** The fewest completion tokens worth sending a call for; budgets shrink maxTokens down to this. */
export const MIN_COMPLETION_TOKENS = 256;
/** Refused calls recorded in one generation's transcript at most (answered and failed calls are all recorded). */
export const MAX_RECORDED_REFUSALS = 1_000;

export interface LlmBrokerOptions {
  /** Null in an offline run: every call is refused. */
  port: LlmPort | null;
  /** Model name for transcripts (the port's when there is one). */
  model: string;
  price: TokenPrice | null;
  generationLimits: BudgetLimits;
  /** Shared by every broker of the run. */
  runLedger: BudgetLedger;
  caps?: RequestCaps;
  /** Calls sent at once; more wait their turn (an agent's Promise.all must not flood the endpoint). */
  maxConcurrent?: number;
  /** Calls that may wait for a slot; more are refused as "busy" (a flood of calls is not a queue of endpoint calls). */
  maxWaiting?: number;
  /** Values scrubbed from anything recorded or returned (the API key, as a second line of defence). */
  secrets?: readonly string[];
  /** Epoch ms the generation ends: no retry starts past it (a retry-after beyond it fails the call at once). */
  deadline?: number;
  now?: () => number;
}

export interface BrokerUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Null when the price is unknown and some call spent tokens. */
  costUsd: number | null;
  /** Some counts are chars/4 estimates. */
  estimated: boolean;
}

/** The code the agent sees for a port failure. */
function codeOf(kind: LlmFailureKind): LlmErrorCode {
  if (kind === "tools_unsupported") return "tools_unsupported";
  if (kind === "divergence") return "replay_divergence";
  if (kind === "aborted") return "unavailable";
  return "endpoint_failed";
}

/** Brokers one generation's LLM and tool traffic; methods are bound for passing as callbacks. */
export class LlmBroker {
  readonly #port: LlmPort | null;
  readonly #model: string;
  readonly #price: TokenPrice | null;
  readonly #generation: BudgetLedger;
  readonly #run: BudgetLedger;
  readonly #caps: RequestCaps;
  readonly #secrets: readonly string[];
  readonly #now: () => number;
  readonly #deadline: number | undefined;
  readonly #entries: TranscriptEntry[] = [];
  readonly #abort = new AbortController();
  readonly #maxConcurrent: number;
  readonly #maxWaiting: number;
  #inFlight = 0;
  #refusals = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(options: LlmBrokerOptions) {
    if (options.port !== null && options.price === null && (options.generationLimits.usd !== null || options.runLedger.limits.usd !== null)) {
      throw new EvolveError("invalid_options", `a dollar budget is set but the price of model "${options.model}" is unknown`, {
        hint: "Give a price per 1M tokens for the model, or use a token budget instead.",
      });
    }
    this.#port = options.port;
    this.#model = options.port?.model ?? options.model;
    this.#price = options.price;
    this.#generation = new BudgetLedger("generation", options.generationLimits);
    this.#run = options.runLedger;
    this.#caps = options.caps ?? DEFAULT_REQUEST_CAPS;
    this.#secrets = options.secrets ?? [];
    this.#now = options.now ?? Date.now;
    this.#deadline = options.deadline;
    this.#maxConcurrent = Math.max(1, options.maxConcurrent ?? 4);
    this.#maxWaiting = Math.max(0, options.maxWaiting ?? 32);
  }

  /** Answers one agent LLM request (unchecked JSON from the container): a response or a refusal. */
  readonly onLlm = async (raw: unknown): Promise<WireLlmAnswer> => {
    const at = new Date(this.#now()).toISOString();
    const parsed = parseAgentRequest(raw, this.#caps);
    if (!parsed.ok) return this.#refuse(at, "invalid", null, "invalid_request", `LLM request refused: ${parsed.reason}`);
    if (this.#port === null) {
      return this.#refuse(at, "refused", parsed.request, "unavailable", "LLM unavailable: this run has no LLM endpoint (offline); check ctx.llm.available");
    }
    if (this.#inFlight >= this.#maxConcurrent && this.#waiting.length >= this.#maxWaiting) {
      const message = `LLM busy: ${this.#maxConcurrent} calls are in flight and ${this.#waiting.length} waiting (the limit); wait for some to finish. No request was sent.`;
      return this.#refuse(at, "refused", parsed.request, "busy", message);
    }
    await this.#acquire();
    try {
      return await this.#send(at, parsed.request, this.#port);
    } finally {
      this.#release();
    }
  };

  async #send(at: string, parsed: ParsedAgentRequest, port: LlmPort): Promise<WireLlmAnswer> {
    if (this.#abort.signal.aborted) return this.#refuse(at, "refused", parsed, "unavailable", "LLM unavailable: the generation is over");
    // Checked after waiting for a slot, so the budget seen is the one left by the calls before.
    const fit = this.#fit(parsed);
    if (!fit.ok) return this.#refuse(at, "refused", parsed, "budget_exhausted", fit.message);

    const request = sentRequest(parsed, fit.maxTokens);
    const result = await port.complete(request, { signal: this.#abort.signal, ...(this.#deadline === undefined ? {} : { deadline: this.#deadline }) });
    if (!result.ok) {
      for (const r of fit.reservations) r.ledger.settle(r.reservation, 0, 0);
      const error = this.#clean(result.error);
      const code = codeOf(result.kind);
      this.#record({ at, outcome: "failed", request, response: null, error, code, failureKind: result.kind, latencyMs: result.latencyMs, attempts: result.attempts });
      return { ok: false, code, error };
    }
    const { completion } = result;
    const cost = costUsd(this.#price, completion.promptTokens, completion.completionTokens);
    for (const r of fit.reservations) r.ledger.settle(r.reservation, completion.promptTokens + completion.completionTokens, cost ?? 0);
    const response = {
      content: completion.content,
      toolCalls: completion.toolCalls,
      finishReason: completion.finishReason,
      promptTokens: completion.promptTokens,
      completionTokens: completion.completionTokens,
    };
    this.#record({
      at,
      outcome: "ok",
      request,
      response: { content: response.content, toolCalls: response.toolCalls, finishReason: response.finishReason, model: completion.model, ...keptReasoning(completion.reasoning) },
      error: null,
      code: null,
      failureKind: null,
      promptTokens: completion.promptTokens,
      completionTokens: completion.completionTokens,
      usageEstimated: completion.usageEstimated,
      ...(completion.reasoningTokens === undefined ? {} : { reasoningTokens: completion.reasoningTokens }),
      costUsd: cost,
      latencyMs: result.latencyMs,
      attempts: result.attempts,
    });
    return { ok: true, response };
  }

  async #acquire(): Promise<void> {
    if (this.#inFlight < this.#maxConcurrent) {
      this.#inFlight++;
      return;
    }
    // The releasing call hands its slot over directly, so inFlight stays counted.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#inFlight--;
    else next();
  }

  /** Records a workspace tool call reported by the runner (fields capped: it is container output). */
  readonly onTool = (msg: ToolMessage): void => {
    const parsed = ToolTranscriptEntry.safeParse({
      kind: "tool",
      at: new Date(this.#now()).toISOString(),
      name: msg.name,
      path: typeof msg.path === "string" ? msg.path.slice(0, 1_000) : null,
      ok: msg.ok,
      error: typeof msg.error === "string" ? this.#clean(msg.error.slice(0, 2_000)) : null,
    });
    if (parsed.success) this.#entries.push(parsed.data);
  };

  /** Every entry so far, in arrival order. */
  transcript(): TranscriptEntry[] {
    return this.#entries.map((e) => structuredClone(e));
  }

  /** Totals over this broker's calls. */
  usage(): BrokerUsage {
    const llm = this.#entries.filter((e): e is LlmTranscriptEntry => e.kind === "llm");
    const spent = llm.filter((e) => e.promptTokens + e.completionTokens > 0);
    return {
      calls: llm.filter((e) => e.attempts > 0).length,
      promptTokens: sum(llm.map((e) => e.promptTokens)),
      completionTokens: sum(llm.map((e) => e.completionTokens)),
      costUsd: spent.some((e) => e.costUsd === null) ? null : sum(spent.map((e) => e.costUsd ?? 0)),
      estimated: llm.some((e) => e.usageEstimated),
    };
  }

  /** Tokens the agent may still spend in this generation (for ImproveRequest.budget); null when unlimited. */
  remainingTokens(): number | null {
    const gen = this.#generation.remaining().tokens;
    const run = this.#run.remaining().tokens;
    if (gen === null) return run;
    return run === null ? gen : Math.min(gen, run);
  }

  /** True once the run's budget is spent: the loop should stop proposing children. */
  get runBudgetSpent(): boolean {
    return this.#run.exhausted;
  }

  /** Aborts calls in flight and refuses later ones (the generation's container is gone). */
  close(): void {
    this.#abort.abort();
  }

  #fit(
    request: ParsedAgentRequest,
  ): { ok: true; maxTokens: number; reservations: { ledger: BudgetLedger; reservation: Reservation }[] } | { ok: false; message: string } {
    // Budget checks count prompts at 3 chars a token: tokenizers rarely do worse on code and
    // prose, and over-counting here is what keeps a hard budget hard.
    const promptTokens = Math.ceil(request.totalChars / 3) + 4 * request.messages.length;
    const floor = Math.min(MIN_COMPLETION_TOKENS, request.maxTokens);
    let maxTokens = request.maxTokens;
    for (const ledger of [this.#generation, this.#run]) {
      const left = ledger.remaining();
      if (left.tokens !== null) maxTokens = Math.min(maxTokens, left.tokens - promptTokens);
      if (left.usd !== null && this.#price !== null) {
        const perOutput = this.#price.outputPer1M / 1_000_000;
        const promptUsd = (promptTokens * this.#price.inputPer1M) / 1_000_000;
        maxTokens = Math.min(maxTokens, perOutput === 0 ? Infinity : Math.floor((left.usd - promptUsd) / perOutput));
      }
      if (maxTokens < floor) {
        return {
          ok: false,
          message:
            `LLM budget exhausted: the ${ledger.label} budget has ${describeLeft(left)} left, and this request needs about ` +
            `${promptTokens} prompt tokens plus at least ${floor} completion tokens. No request was sent.`,
        };
      }
    }
    const usd = costUsd(this.#price, promptTokens, maxTokens) ?? 0;
    const reservations = [this.#generation, this.#run].map((ledger) => ({ ledger, reservation: ledger.reserve(promptTokens + maxTokens, usd) }));
    return { ok: true, maxTokens, reservations };
  }

  #refuse(
    at: string,
    outcome: "invalid" | "refused",
    request: ParsedAgentRequest | null,
    code: LlmErrorCode,
    message: string,
  ): WireLlmAnswer {
    const error = this.#clean(message);
    // A flood of refused calls must not become a flood of transcript lines: past the cap, one
    // last entry says so and later refusals are answered without being recorded.
    this.#refusals++;
    if (this.#refusals <= MAX_RECORDED_REFUSALS) {
      const last = this.#refusals === MAX_RECORDED_REFUSALS;
      this.#record({
        at,
        outcome,
        // A busy refusal is a flood's symptom: its request is not worth keeping.
        request: request === null || code === "busy" ? null : sentRequest(request, request.maxTokens),
        response: null,
        error: last ? `${error} (the ${MAX_RECORDED_REFUSALS}th refusal: later refusals of this generation are not recorded)` : error,
        code,
        failureKind: null,
        latencyMs: 0,
        attempts: 0,
      });
    }
    return { ok: false, code, error };
  }

  #record(entry: Omit<LlmTranscriptEntry, "kind" | "model" | "promptTokens" | "completionTokens" | "usageEstimated" | "costUsd"> &
    Partial<Pick<LlmTranscriptEntry, "promptTokens" | "completionTokens" | "usageEstimated" | "costUsd">>): void {
    this.#entries.push({
      kind: "llm",
      model: this.#model,
      promptTokens: 0,
      completionTokens: 0,
      usageEstimated: false,
      costUsd: this.#price === null ? null : 0,
      ...entry,
    });
  }

  #clean(text: string): string {
    return redactAll(text, this.#secrets);
  }
}

/** The request as the port gets it and the transcript records it (no broker bookkeeping). */
function sentRequest(parsed: ParsedAgentRequest, maxTokens: number): LlmCompletionRequest {
  const { totalChars: _, ...request } = parsed;
  return { ...request, maxTokens };
}

/** The reasoning to record, capped (it can be far longer than the answer). */
function keptReasoning(reasoning: string | undefined): { reasoning?: string } {
  if (reasoning === undefined) return {};
  return { reasoning: reasoning.length <= MAX_REASONING_CHARS ? reasoning : `${reasoning.slice(0, MAX_REASONING_CHARS)}… [${reasoning.length - MAX_REASONING_CHARS} more characters cut]` };
}

function describeLeft(left: { tokens: number | null; usd: number | null }): string {
  const parts: string[] = [];
  if (left.tokens !== null) parts.push(`${left.tokens} tokens`);
  if (left.usd !== null) parts.push(`$${left.usd.toFixed(4)}`);
  return parts.join(" and ");
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
