/**
 * A bench run process killed or interrupted (a Ctrl-C reaches the bench's whole process group)
 * stops its run as `evolve run` does, so its containers and scratch folders go instead of being
 * left behind; and it gives no result, so the caller records a failure (to run again), never a
 * cut run as if it had ended on its own.
 */

/** Aborts `stop` at SIGINT or SIGTERM; returns what says which signal came (null: none). */
export function abortOnSignal(stop: AbortController): () => NodeJS.Signals | null {
  let received: NodeJS.Signals | null = null;
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => {
      received = signal;
      stop.abort();
    });
  return () => received;
}

/** Says on stderr that the run was stopped and gives no result (exit code 1). */
export function reportInterrupted(signal: NodeJS.Signals): void {
  process.stderr.write(`stopped by ${signal}: no result\n`);
  process.exitCode = 1;
}
