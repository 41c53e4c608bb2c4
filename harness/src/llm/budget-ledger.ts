import { z } from "zod";

/** Hard limits; null means unlimited. */
export const BudgetLimits = z.object({
  tokens: z.number().int().positive().nullable(),
  usd: z.number().positive().finite().nullable(),
});
export type BudgetLimits = z.infer<typeof BudgetLimits>;

export const UNLIMITED: BudgetLimits = { tokens: null, usd: null };

/** Below this many tokens left, no useful call fits: the run stops proposing. */
export const MIN_USEFUL_TOKENS = 256;

export interface Spend {
  tokens: number;
  usd: number;
}

/** Budget held for a call in flight, settled with the real usage when it returns. */
export interface Reservation {
  readonly tokens: number;
  readonly usd: number;
  settled: boolean;
}

/**
 * Spend against limits, for one generation or a whole run. Calls reserve their worst case
 * before they are sent and settle with the real usage after, so concurrent calls (several
 * generations at once, or an agent's Promise.all) cannot jointly overrun the limit.
 */
export class BudgetLedger {
  readonly label: string;
  readonly limits: BudgetLimits;
  #spent: Spend;
  #reserved: Spend = { tokens: 0, usd: 0 };

  /** `initial` restores what a resumed run had already spent. */
  constructor(label: string, limits: BudgetLimits, initial: Spend = { tokens: 0, usd: 0 }) {
    this.label = label;
    this.limits = BudgetLimits.parse(limits);
    this.#spent = { ...initial };
  }

  /** Settled spend (reservations excluded). */
  get spent(): Spend {
    return { ...this.#spent };
  }

  /** What is left after settled spend and calls in flight; null when unlimited. */
  remaining(): { tokens: number | null; usd: number | null } {
    const { tokens, usd } = this.limits;
    return {
      tokens: tokens === null ? null : Math.max(0, tokens - this.#spent.tokens - this.#reserved.tokens),
      usd: usd === null ? null : Math.max(0, usd - this.#spent.usd - this.#reserved.usd),
    };
  }

  /** True once no useful call fits any more. */
  get exhausted(): boolean {
    const left = this.remaining();
    return (left.tokens !== null && left.tokens < MIN_USEFUL_TOKENS) || (left.usd !== null && left.usd <= 0);
  }

  /** Holds budget for a call; the caller has checked that it fits. */
  reserve(tokens: number, usd: number): Reservation {
    this.#reserved.tokens += tokens;
    this.#reserved.usd += usd;
    return { tokens, usd, settled: false };
  }

  /** Replaces a reservation by the real spend (0 for calls that failed). Idempotent. */
  settle(reservation: Reservation, tokens: number, usd: number): void {
    if (reservation.settled) return;
    reservation.settled = true;
    this.#reserved.tokens -= reservation.tokens;
    this.#reserved.usd -= reservation.usd;
    this.#spent.tokens += tokens;
    this.#spent.usd += usd;
  }
}
