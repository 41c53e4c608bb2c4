/**
 * How the `evolve` process ends. A command returns its exit code and the process ends with
 * it within a few seconds, whatever is still open (a socket of an engine that never
 * answered, a child process): the commands close what they open, and this is the net under
 * them. A closed stdout (`evolve ls | head -3`) ends the command quietly with 0: a command
 * that owns a run stops it cleanly first (containers removed, the run marked interrupted).
 */
import { writeSync } from "node:fs";

/** How long a finished command may take to let go of what it still holds. */
export const EXIT_GRACE_MS = 3_000;

let closed = false;
const onClose = new Set<() => void>();
/** True once process.stdout is in use (read by anything, or taken over after EAGAIN): writeStdout then writes through it. */
let streamOpened = false;

/** True once a write to stdout met a closed pipe (EPIPE). */
export function stdoutClosed(): boolean {
  return closed;
}

/** Calls `stop` when stdout closes (a run stops cleanly instead of being cut off); returns the unsubscribe. */
export function whenStdoutCloses(stop: () => void): () => void {
  onClose.add(stop);
  return () => onClose.delete(stop);
}

/** A write met a closed stdout: quiet, exit 0, or the subscribers (a run) stop first. */
function stdoutWentAway(): void {
  if (closed) return;
  closed = true;
  if (onClose.size === 0) process.exit(0);
  for (const stop of onClose) stop();
}

/** Listens for EPIPE on `stream` (process.stdout): quiet, exit 0; other stream errors stay errors. */
export function watchStdout(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    stdoutWentAway();
  });
}

/**
 * Watches process.stdout from the moment anything reads it (a run's progress, console.log).
 * Node builds that stream on first use, with the stream, net or tty modules behind it, which
 * cost an inspect command about 10 ms of its start; `evolve ls` and `show` write through
 * writeStdout and never build it.
 */
export function watchStdoutWhenOpened(): void {
  const own = Object.getOwnPropertyDescriptor(process, "stdout");
  const get = own?.get;
  if (get === undefined || own?.configurable !== true) {
    streamOpened = true;
    watchStdout();
    return;
  }
  Object.defineProperty(process, "stdout", {
    configurable: true,
    enumerable: own.enumerable ?? true,
    get() {
      const stream = get.call(process) as NodeJS.WriteStream;
      Object.defineProperty(process, "stdout", { configurable: true, enumerable: own.enumerable ?? true, get: () => stream });
      streamOpened = true;
      watchStdout(stream);
      return stream;
    },
  });
}

/**
 * Writes `text` to stdout: with write(2) on fd 1 while nothing has opened process.stdout, else
 * through that stream, so the order of what was written stays the order it was written in.
 * A pipe that would block (a non-blocking fd from an unusual parent) hands the rest to the
 * stream, which waits; a closed one (EPIPE) is stdoutWentAway.
 */
export function writeStdout(text: string): void {
  if (closed) return;
  if (streamOpened) {
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return stdoutWentAway();
      if (code !== "EAGAIN") throw error;
      // The stream queues what the pipe cannot take yet; every later write must queue behind it.
      streamOpened = true;
      process.stdout.write(bytes.subarray(offset));
      return;
    }
  }
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
