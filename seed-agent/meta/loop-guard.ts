/**
 * Ends a conversation that goes nowhere, with its reason, before it spends the turn cap.
 * After OpenHands' stuck detector (https://docs.openhands.dev/sdk/guides/agent-stuck-detector),
 * which halts on the same action with the same observation 4 times: here, the same call with
 * the same result 4 times in a row, or 4 turns in a row without progress (no edit applied,
 * nothing new learnt: every result an error or one already seen).
 */

/** The same call with the same result this many times in a row ends the loop. */
export const MAX_REPEATS = 4;
/** This many turns in a row without progress end the loop. */
export const MAX_STALE_TURNS = 4;

export class LoopGuard {
  #last = "";
  #repeats = 0;
  #stale = 0;
  #progress = false;
  readonly #seen = new Set<string>();

  /** Records one call and its result; the reason to stop, or null. */
  call(name: string, args: string, result: string, failed: boolean): string | null {
    const key = `${name}\u0000${args}\u0000${result}`;
    this.#repeats = key === this.#last ? this.#repeats + 1 : 1;
    this.#last = key;
    if (!failed && !this.#seen.has(key)) this.#progress = true;
    // Bounded: a turn has at most 16 calls read from text, and the loop at most its turn cap.
    if (this.#seen.size < 256) this.#seen.add(key);
    if (this.#repeats >= MAX_REPEATS) return `the model made the same call (${name}) with the same result ${this.#repeats} times in a row`;
    return null;
  }

  /** An edit was applied this turn. */
  edited(): void {
    this.#progress = true;
  }

  /** Ends a turn; the reason to stop, or null. */
  turn(): string | null {
    this.#stale = this.#progress ? 0 : this.#stale + 1;
    this.#progress = false;
    return this.#stale >= MAX_STALE_TURNS ? `${this.#stale} turns in a row without progress (no edit applied, nothing new learnt)` : null;
  }
}
