import { z } from "zod";

/** How the openai adapter retries: bounded attempts, exponential backoff with jitter. */
export const RetryPolicy = z.object({
  /** Total attempts including the first (1 = no retry). */
  maxAttempts: z.number().int().min(1).max(10),
  baseDelayMs: z.number().int().min(0),
  maxDelayMs: z.number().int().min(0),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8_000 };

/**
 * Delay before retry number `retry` (1 for the first retry): "equal jitter" — half of the
 * exponential step fixed, half random, so clients that failed together do not retry together
 * yet each retry still waits at least half its step. A server's retry-after wins when it is
 * longer, capped at maxDelayMs so a hostile endpoint cannot park the run.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number, retryAfterMs: number | null = null): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = step / 2 + random() * (step / 2);
  const wanted = retryAfterMs === null ? jittered : Math.max(jittered, retryAfterMs);
  return Math.round(Math.min(policy.maxDelayMs, wanted));
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
