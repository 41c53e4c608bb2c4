/**
 * What the model's replies looked like over one generation: the formats it used, what was
 * repaired, what was refused and why the conversation ended. It goes into the generation's
 * summary, so a lineage (and the models bench) can say how a model behaves.
 */

/** Counts of things seen, in the order first seen. */
class Tally {
  readonly #counts = new Map<string, number>();

  add(key: string, n = 1): void {
    if (n > 0) this.#counts.set(key, (this.#counts.get(key) ?? 0) + n);
  }

  get size(): number {
    return this.#counts.size;
  }

  toString(): string {
    return [...this.#counts].map(([k, n]) => (n === 1 ? k : `${k} ×${n}`)).join(", ");
  }
}

export class ReplyLog {
  readonly #formats = new Tally();
  readonly #repairs = new Tally();
  readonly #refused = new Tally();

  /** One reply's format (see reply-reader.ts). */
  format(name: string): void {
    this.#formats.add(name);
  }

  /** Repairs made to one call's arguments. */
  repaired(repairs: readonly string[]): void {
    for (const r of repairs) this.#repairs.add(r);
  }

  /** Calls or edits that were not applied, by kind ("cut call", "unreadable arguments", ...). */
  refused(kind: string, n = 1): void {
    this.#refused.add(kind, n);
  }

  /** One clause for the summary: "format: …; repaired: …; refused: …". */
  describe(): string {
    const parts = [`format: ${this.#formats.size > 0 ? this.#formats.toString() : "none"}`];
    if (this.#repairs.size > 0) parts.push(`repaired: ${this.#repairs.toString()}`);
    if (this.#refused.size > 0) parts.push(`refused: ${this.#refused.toString()}`);
    return parts.join("; ");
  }
}
