import { describe, expect, it } from "vitest";
import { BudgetLedger, DEFAULT_MAX_RETRY_AFTER_MS, DEFAULT_RETRY_POLICY, costUsd, priceFor } from "../../harness/src/llm/index.js";
import { backoffDelayMs, isRetryableStatus, parseRetryAfter } from "../../harness/src/llm/retry-policy.js";

describe("prices", () => {
  it("knows listed models and their dated snapshots, not unknown ones", () => {
    expect(priceFor("gpt-4o-mini")).toEqual({ inputPer1M: 0.15, outputPer1M: 0.6 });
    expect(priceFor("gpt-4o-mini-2024-07-18")).toEqual({ inputPer1M: 0.15, outputPer1M: 0.6 });
    expect(priceFor("gpt-4o-2024-08-06")).toEqual({ inputPer1M: 2.5, outputPer1M: 10 });
    expect(priceFor("llama3.1:8b")).toBeNull();
    expect(priceFor("llama3.1:8b", { inputPer1M: 0, outputPer1M: 0 })).toEqual({ inputPer1M: 0, outputPer1M: 0 });
    expect(costUsd(priceFor("gpt-4o"), 1_000_000, 1_000_000)).toBeCloseTo(12.5);
    expect(costUsd(null, 10, 10)).toBeNull();
  });
});

describe("retry policy", () => {
  it("backs off exponentially with bounded jitter and a cap", () => {
    const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(backoffDelayMs(1, policy, () => 0)).toBe(50);
    expect(backoffDelayMs(1, policy, () => 1)).toBe(100);
    expect(backoffDelayMs(3, policy, () => 1)).toBe(400);
    expect(backoffDelayMs(10, policy, () => 1)).toBe(1_000);
    // A server's retry-after wins when longer, past the backoff cap (a 429 retried sooner is
    // refused again), but never beyond the retry-after cap (60 s unless the policy says).
    expect(backoffDelayMs(1, policy, () => 0, 600)).toBe(600);
    expect(backoffDelayMs(1, policy, () => 0, 5_000)).toBe(5_000);
    expect(backoffDelayMs(1, policy, () => 0, 600_000)).toBe(DEFAULT_MAX_RETRY_AFTER_MS);
    expect(backoffDelayMs(1, { ...policy, maxRetryAfterMs: 2_000 }, () => 0, 60_000)).toBe(2_000);
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBeGreaterThan(1);
  });

  it("retries 408, 429 and 5xx only; parses retry-after", () => {
    expect([400, 401, 404, 408, 422, 429, 500, 503].filter(isRetryableStatus)).toEqual([408, 429, 500, 503]);
    expect(parseRetryAfter("2", 0)).toBe(2_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter("soon", 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });
});

describe("budget ledger", () => {
  it("counts reservations against what is left and settles to the real spend", () => {
    const ledger = new BudgetLedger("run", { tokens: 1_000, usd: null }, { tokens: 100, usd: 0 });
    const r = ledger.reserve(500, 0);
    expect(ledger.remaining().tokens).toBe(400);
    ledger.settle(r, 200, 0);
    ledger.settle(r, 200, 0); // idempotent
    expect(ledger.spent.tokens).toBe(300);
    expect(ledger.remaining().tokens).toBe(700);
    expect(ledger.exhausted).toBe(false);
    ledger.settle(ledger.reserve(0, 0), 500, 0);
    expect(ledger.exhausted).toBe(true);
  });
});
