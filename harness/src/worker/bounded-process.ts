/**
 * One trusted child process that works on hostile input under limits: a heap cap, one job at
 * a time, a time limit per job (its own CPU time, with a wall-clock backstop), SIGKILL on a limit, and its death told apart (out of memory,
 * exited, timed out). The type checker (validation/) and the arena's oracle (arena/) each run
 * in one. A process rather than a worker thread: near its heap limit V8 can abort the whole
 * process on an allocation it cannot satisfy ("CALL_AND_RETRY_LAST Allocation failed"), and
 * that must never be the harness.
 */
import { fork, type ChildProcess } from "node:child_process";
import { cpuTimeMs } from "./cpu-time.js";

/** How the wait for the process's next message ended. */
export type ProcessEnd<M> = { kind: "message"; message: M } | { kind: "timeout" } | { kind: "out_of_memory" } | { kind: "exited"; detail: string };

export interface BoundedProcessOptions<M> {
  /** The .mjs entry (it loads the compiled body, or the TypeScript one through tsx in a checkout). */
  entry: string;
  args?: string[];
  memoryMb: number;
  /** V8 flags beyond the heap cap. */
  flags?: string[];
  /** A message that is news rather than an answer (progress): seen here, never delivered. */
  aside?: (message: M) => boolean;
}

const STDERR_CAP = 16_384;
/** A job that idles rather than computes (an await that never settles) is stopped at this many times its limit of wall time. */
export const WALL_BACKSTOP = 10;
/** How soon a job's CPU time is read again when the limit's wall time has passed but its CPU time has not. */
const CPU_POLL_MS = 100;
/** How long an aborted process's last words (V8's out-of-memory report) may take to arrive after its exit. */
const STDERR_WAIT_MS = 1_000;

export class BoundedProcess<M, J = unknown> {
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  #waiter: ((end: ProcessEnd<M>) => void) | null = null;
  /** Messages that came while nobody waited (the ready message, typically); dropped when a job is sent. */
  #unread: M[] = [];
  #stderr = "";
  #dead = false;

  constructor(options: BoundedProcessOptions<M>) {
    // Only the process's own flags: none of the harness's (a test runner's, an inspector's).
    this.#child = fork(options.entry, options.args ?? [], {
      execArgv: [`--max-old-space-size=${options.memoryMb}`, "--max-semi-space-size=4", ...(options.flags ?? [])],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    this.#child.stderr?.on("data", (chunk: Buffer) => {
      if (this.#stderr.length < STDERR_CAP) this.#stderr += chunk.toString("utf8");
    });
    // An idle process must not keep a finished command alive; a pending job's timer does.
    this.#child.unref();
    this.#child.channel?.unref();
    // Its stderr pipe is a handle of its own: left referenced, it held every refused run open.
    (this.#child.stderr as { unref?: () => void } | null)?.unref?.();
    this.#exited = new Promise((resolve) => this.#child.once("exit", () => resolve()));
    this.#child.on("message", (message: M) => {
      if (options.aside?.(message) !== true) this.#deliver({ kind: "message", message });
    });
    this.#child.on("error", (error) => this.#deliver({ kind: "exited", detail: error.message }));
    const stderrClosed = new Promise<void>((resolve) => this.#child.stderr?.once("close", () => resolve()) ?? resolve());
    this.#child.on("exit", (code, signal) => {
      this.#dead = true;
      // V8 out of heap prints its report and aborts (SIGABRT, or exit code 134 through a
      // shell); the report may still be in the pipe when "exit" comes, so an abort waits for it.
      const aborted = signal === "SIGABRT" || code === 134;
      void (aborted ? Promise.race([stderrClosed, new Promise((r) => setTimeout(r, STDERR_WAIT_MS))]) : Promise.resolve()).then(() => {
        const oom = aborted && /heap out of memory|Allocation failed/i.test(this.#stderr);
        this.#deliver(oom ? { kind: "out_of_memory" } : { kind: "exited", detail: signal === null ? `exit code ${code}` : `signal ${signal}` });
      });
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** False once the process has exited. */
  get alive(): boolean {
    return !this.#dead;
  }

  /**
   * Sends `job` (when given) and waits for the next message or the process's end. A job is
   * timed out once it has used `timeoutMs` of CPU time, or after WALL_BACKSTOP times that of
   * wall time; where CPU time cannot be read (not Linux), and for a wait without a job, the
   * limit is `timeoutMs` of wall time.
   */
  next(timeoutMs: number, job?: J): Promise<ProcessEnd<M>> {
    if (job !== undefined) this.#unread = [];
    const unread = this.#unread.shift();
    if (unread !== undefined) return Promise.resolve({ kind: "message", message: unread });
    if (this.#dead) return Promise.resolve({ kind: "exited", detail: "the process is gone" });
    return new Promise((resolve) => {
      const cpuAtStart = job === undefined ? null : cpuTimeMs(this.#child.pid);
      const wallLimit = performance.now() + (cpuAtStart === null ? timeoutMs : timeoutMs * WALL_BACKSTOP);
      let timer: NodeJS.Timeout;
      const check = (): void => {
        const cpu = cpuAtStart === null ? null : cpuTimeMs(this.#child.pid);
        const cpuLeft = cpu === null ? 0 : timeoutMs - (cpu - cpuAtStart!);
        const wallLeft = wallLimit - performance.now();
        if (cpuLeft > 0 && wallLeft > 0) {
          timer = setTimeout(check, Math.min(Math.max(cpuLeft, CPU_POLL_MS), wallLeft));
          return;
        }
        this.#waiter = null;
        resolve({ kind: "timeout" });
      };
      timer = setTimeout(check, timeoutMs);
      this.#waiter = (end) => {
        clearTimeout(timer);
        resolve(end);
      };
      if (job !== undefined) this.#child.send(job as never);
    });
  }

  /** SIGKILLs the process (when alive) and waits until it is gone. */
  async kill(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      // Held while it dies: with the process unreferenced, a command whose last step is this
      // wait would otherwise find its event loop empty and end with Node's exit code 13.
      this.#child.ref();
      this.#child.kill("SIGKILL");
    }
    await this.#exited;
  }

  #deliver(end: ProcessEnd<M>): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    if (waiter !== null) waiter(end);
    else if (end.kind === "message") this.#unread.push(end.message);
  }
}
