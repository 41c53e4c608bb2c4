import { z } from "zod";
import { EvolveError } from "../kernel/index.js";
import { TokenPrice, priceFor } from "./pricing.js";
import { DEFAULT_RETRY_POLICY, RetryPolicy } from "./retry-policy.js";
import { Secret } from "./secret.js";

/** The model used when neither --model nor OPENAI_MODEL says otherwise. */
export const DEFAULT_MODEL = "gpt-4o-mini";
export const DEFAULT_TIMEOUT_MS = 60_000;

/** LLM options as the CLI gives them (all optional). */
export const LlmOptions = z.object({
  model: z.string().min(1).max(200).optional(),
  /** Per-attempt HTTP timeout. */
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  retry: RetryPolicy.optional(),
  /** Overrides the built-in price table (dollars per 1M tokens). */
  price: TokenPrice.optional(),
});
export type LlmOptions = z.infer<typeof LlmOptions>;

/** What the run can use: an endpoint, or an explicit offline state with the reason. */
export type LlmSetup =
  | {
      available: true;
      model: string;
      baseURL: string | null;
      /** Null for keyless local servers (Ollama, llama.cpp); a Secret never prints its value. */
      apiKey: Secret | null;
      timeoutMs: number;
      retry: RetryPolicy;
      price: TokenPrice | null;
    }
  | { available: false; model: string; price: TokenPrice | null; reason: string };

/**
 * Reads OPENAI_BASE_URL, OPENAI_API_KEY (and OPENAI_MODEL as a fallback for --model) from the
 * given environment. Offline when neither a key nor a base URL is set: the agents then get
 * `llm.available === false` and the seed's offline strategy runs.
 */
export function resolveLlmSetup(env: Readonly<Record<string, string | undefined>>, rawOptions: unknown = {}): LlmSetup {
  const parsed = LlmOptions.safeParse(rawOptions);
  if (!parsed.success) {
    throw new EvolveError("invalid_options", `invalid LLM options: ${z.prettifyError(parsed.error)}`);
  }
  const options = parsed.data;
  const model = options.model ?? nonEmpty(env["OPENAI_MODEL"]) ?? DEFAULT_MODEL;
  const price = priceFor(model, options.price);
  const key = nonEmpty(env["OPENAI_API_KEY"]);
  const baseURL = nonEmpty(env["OPENAI_BASE_URL"]);
  if (key === undefined && baseURL === undefined) {
    return { available: false, model, price, reason: "neither OPENAI_API_KEY nor OPENAI_BASE_URL is set" };
  }
  if (baseURL !== undefined && !isHttpUrl(baseURL)) {
    throw new EvolveError("invalid_options", `OPENAI_BASE_URL is not an http(s) URL: ${JSON.stringify(baseURL.slice(0, 200))}`, {
      hint: "Set it to the endpoint's base, e.g. http://127.0.0.1:11434/v1 for Ollama.",
    });
  }
  return {
    available: true,
    model,
    baseURL: baseURL ?? null,
    apiKey: key === undefined ? null : new Secret(key),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: options.retry ?? DEFAULT_RETRY_POLICY,
    price,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
