import { z } from "zod";

/** Dollars per one million tokens. */
export const TokenPrice = z.object({
  inputPer1M: z.number().finite().nonnegative(),
  outputPer1M: z.number().finite().nonnegative(),
});
export type TokenPrice = z.infer<typeof TokenPrice>;

// Public list prices (USD per 1M tokens, standard tier) as published by OpenAI in 2025.
// Deliberately small: anything else (local models, other vendors) is "unknown" unless the
// user passes an override, and unknown means dollar budgets cannot be enforced.
const PRICE_TABLE: Readonly<Record<string, TokenPrice>> = {
  "gpt-4o": { inputPer1M: 2.5, outputPer1M: 10 },
  "gpt-4o-mini": { inputPer1M: 0.15, outputPer1M: 0.6 },
  "gpt-4.1": { inputPer1M: 2, outputPer1M: 8 },
  "gpt-4.1-mini": { inputPer1M: 0.4, outputPer1M: 1.6 },
  "gpt-4.1-nano": { inputPer1M: 0.1, outputPer1M: 0.4 },
  "gpt-5": { inputPer1M: 1.25, outputPer1M: 10 },
  "gpt-5-mini": { inputPer1M: 0.25, outputPer1M: 2 },
  "gpt-5-nano": { inputPer1M: 0.05, outputPer1M: 0.4 },
  "o3-mini": { inputPer1M: 1.1, outputPer1M: 4.4 },
  "o4-mini": { inputPer1M: 1.1, outputPer1M: 4.4 },
};

/**
 * The price of a model: the override when given, else the table entry for the exact name or
 * for its dated snapshot ("gpt-4o-mini-2024-07-18" → "gpt-4o-mini"), else null (unknown).
 */
export function priceFor(model: string, override?: TokenPrice): TokenPrice | null {
  if (override !== undefined) return override;
  const exact = PRICE_TABLE[model];
  if (exact !== undefined) return exact;
  // Longest known name that the model extends with a dated suffix; "gpt-4o" must not match "gpt-4o-mini".
  const dated = /^(.*?)-(\d{4}-\d{2}-\d{2}|\d{4})$/.exec(model);
  const base = dated?.[1];
  return base === undefined ? null : (PRICE_TABLE[base] ?? null);
}

/** Dollars for a call, or null when the price is unknown. */
export function costUsd(price: TokenPrice | null, promptTokens: number, completionTokens: number): number | null {
  if (price === null) return null;
  return (promptTokens * price.inputPer1M + completionTokens * price.outputPer1M) / 1_000_000;
}
