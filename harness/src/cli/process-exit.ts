/**
 * How the `evolve` process ends. A command returns its exit code and the process ends with
 * it within a few seconds, whatever is still open (a socket of an engine that never
 * answered, a child process): the commands close what they open, and this is the net under
 * them. A closed stdout (`evolve ls | head -3`) ends the command quietly with 0: a command
 * that owns a run stops it cleanly first (containers removed, the run marked interrupted).
 */

/** How long a finished command may take to let go of what it still holds. */
export const EXIT_GRACE_MS = 3_000;

let closed = false;
const onClose = new Set<() => void>();

/** True once a write to stdout met a closed pipe (EPIPE). */
export function stdoutClosed(): boolean {
  return closed;
}

/** Calls `stop` when stdout closes (a run stops cleanly instead of being cut off); returns the unsubscribe. */
export function whenStdoutCloses(stop: () => void): () => void {
  onClose.add(stop);
  return () => onClose.delete(stop);
}

/** Listens for EPIPE on `stream` (process.stdout): quiet, exit 0; other stream errors stay errors. */
export function watchStdout(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    if (closed) return;
    closed = true;
    if (onClose.size === 0) process.exit(0);
    for (const stop of onClose) stop();
  });
}

/**
 * Ends the process with `code`: at once if nothing holds it open, else after the grace (the
 * timer is unreferenced, so it never delays an exit). EVOLVE_DEBUG=1 names what held it.
 */
export function exitWith(code: number): void {
  process.exitCode = code;
  const timer = setTimeout(() => {
    if (process.env["EVOLVE_DEBUG"]) process.stderr.write(`evolve: still open after ${EXIT_GRACE_MS} ms: ${process.getActiveResourcesInfo().join(", ")}; exiting\n`);
    process.exit(code);
  }, EXIT_GRACE_MS);
  timer.unref();
}
