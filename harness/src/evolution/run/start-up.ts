/**
 * What `evolve run` and `evolve resume` open before the run owns it: the check worker and
 * the engines (sockets, a fleet's health timer, a warm pool). Until executeRun takes them
 * over, any failure, or Ctrl-C, closes every one of them, so a refused start ends the process
 * at once instead of leaving it held open by a worker nobody will use.
 */
import { EvolveError } from "../../kernel/index.js";

/** How long closing one resource may take on the way out; the command exits after it either way. */
const CLOSE_WAIT_MS = 3_000;

type Closer = () => Promise<unknown>;

export class StartUp {
  readonly #signal: AbortSignal;
  #closers: Closer[] = [];

  constructor(signal: AbortSignal) {
    this.#signal = signal;
  }

  /** `resource` is closed by `close` if the start fails. */
  own<T>(resource: T, close: (resource: T) => Promise<unknown>): T {
    this.#closers.push(() => close(resource));
    return resource;
  }

  /** A resource still being opened (an engine connecting): closed when it arrives, if the start has failed by then. */
  ownLater<T>(opening: Promise<T>, close: (resource: T) => Promise<unknown>): Promise<T> {
    // Observed here so a connection that fails after the start gave up is not an unhandled rejection.
    opening.catch(() => undefined);
    this.#closers.push(() => opening.then(close, () => undefined));
    return opening;
  }

  /** Waits for one start-up step; Ctrl-C ends the wait at once as an `interrupted` error. */
  async step<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    if (this.#signal.aborted) throw interruptedWhileStarting();
    let onAbort: (() => void) | null = null;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(interruptedWhileStarting());
      this.#signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([work, aborted]);
    } finally {
      if (onAbort !== null) this.#signal.removeEventListener("abort", onAbort);
    }
  }

  /** Closes everything owned, newest first, each within a bound; never throws. */
  async close(): Promise<void> {
    const closers = this.#closers.reverse();
    this.#closers = [];
    for (const close of closers) await withinBound(close());
  }

  /** The run owns everything now (executeRun closes it): nothing is closed here any more. */
  handOver(): void {
    this.#closers = [];
  }

  /** Runs `start` and closes what it opened if it throws; the error goes on to the command. */
  async guard<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (error) {
      await this.close();
      throw error;
    }
  }
}

function interruptedWhileStarting(): EvolveError {
  return new EvolveError("interrupted", "interrupted while starting: nothing was recorded");
}

async function withinBound(closing: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_WAIT_MS);
    timer.unref();
  });
  await Promise.race([closing.catch(() => undefined), bound]);
  clearTimeout(timer);
}
