import { z } from "zod";

/** How the openai adapter retries: bounded attempts, exponential backoff with jitter. */
export const RetryPolicy = z.object({
  /** Total attempts including the first (1 = no retry). */
  maxAttempts: z.number().int().min(1).max(10),
  baseDelayMs: z.number().int().min(0),
  maxDelayMs: z.number().int().min(0),
  /** The longest retry-after a server may ask for and be waited for (within the call's deadline); longer, the call fails at once. */
  maxRetryAfterMs: z.number().int().min(0).optional(),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8_000 };

/** How long a server's retry-after is waited for at most when the policy does not say. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/**
 * Delay before retry number `retry` (1 for the first retry): "equal jitter" — half of the
 * exponential step fixed, half random, so clients that failed together do not retry together
 * yet each retry still waits at least half its step. A server's retry-after is what it asks
 * for (a 429 retried sooner is refused again): it wins when longer, up to maxRetryAfterMs, so
 * a hostile endpoint cannot park the run; the port also keeps it within the call's deadline.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number, retryAfterMs: number | null = null): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.min(policy.maxDelayMs, step / 2 + random() * (step / 2));
  if (retryAfterMs === null) return Math.round(jittered);
  return Math.round(Math.min(retryAfterCap(policy), Math.max(jittered, retryAfterMs)));
}

/** The longest retry-after this policy waits for. */
export function retryAfterCap(policy: RetryPolicy): number {
  return Math.max(policy.maxDelayMs, policy.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS);
}

/** 429 and 5xx are worth retrying (plus 408 request timeout); other 4xx will fail again. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The retry-after header in ms (seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined || value === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
