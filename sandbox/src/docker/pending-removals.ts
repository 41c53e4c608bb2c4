/**
 * Removals still under way. A session can hand its container back as soon as the answers and
 * the stderr are in (sessions/solve-session.ts `release`): Docker's teardown of it then runs
 * in the background, and its engine waits for all of them before it counts what is left or
 * closes, so neither ever sees a container that is merely on its way out.
 */
export class PendingRemovals {
  readonly #pending = new Set<Promise<void>>();

  track(removal: Promise<void>): void {
    const settled = removal.catch(() => undefined);
    this.#pending.add(settled);
    void settled.then(() => this.#pending.delete(settled));
  }

  /** Resolves once every removal begun so far has ended. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
