/**
 * The harness's handle on one judge worker process (judge-worker.ts): started with a heap cap,
 * one job at a time, a wall clock per job, SIGKILLed on a limit. Modelled on the validation's
 * bounded checker: a process rather than a thread, because V8 can abort a whole process on
 * an allocation it cannot satisfy near the heap limit, and that must never be the harness.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { JudgeJob, JudgeResult, JudgeWorkerMessage } from "./judge-protocol.js";

const WORKER_ENTRY = fileURLToPath(new URL("./judge-worker-entry.mjs", import.meta.url));
/** Start-up (tsx, zod, the grader and what it imports) is not the proposal's time; this bounds it. */
const READY_TIMEOUT_MS = 60_000;
const STDERR_CAP = 16_384;
/** How long an aborted worker's last words may take to arrive after its exit. */
const STDERR_WAIT_MS = 1_000;

/** How a job (or the start) ended, when not by a result. */
export type WorkerEnd =
  | { kind: "result"; result: JudgeResult }
  | { kind: "timeout" }
  | { kind: "out_of_memory" }
  | { kind: "exited"; detail: string };

type Ended = { kind: "message"; message: JudgeWorkerMessage } | Exclude<WorkerEnd, { kind: "result" }>;

export class JudgeWorker {
  readonly #child: ChildProcess;
  #waiter: ((end: Ended) => void) | null = null;
  #exited: Promise<void>;
  #stderr = "";
  #dead = false;
  #nextJob = 0;

  constructor(graderPath: string, memoryMb: number) {
    // Only the worker's own flags: none of the harness's (a test runner's, an inspector's).
    this.#child = fork(WORKER_ENTRY, [graderPath], {
      execArgv: [`--max-old-space-size=${memoryMb}`, "--max-semi-space-size=4"],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    this.#child.stderr?.on("data", (chunk: Buffer) => {
      if (this.#stderr.length < STDERR_CAP) this.#stderr += chunk.toString("utf8");
    });
    // An idle worker must not keep the harness alive; a pending job's timer does.
    this.#child.unref();
    this.#child.channel?.unref();
    this.#exited = new Promise((resolve) => this.#child.once("exit", () => resolve()));
    this.#child.on("message", (message: JudgeWorkerMessage) => this.#deliver({ kind: "message", message }));
    this.#child.on("error", (error) => this.#deliver({ kind: "exited", detail: error.message }));
    const stderrClosed = new Promise<void>((resolve) => this.#child.stderr?.once("close", () => resolve()) ?? resolve());
    this.#child.on("exit", (code, signal) => {
      this.#dead = true;
      // V8 out of heap prints its fatal report and aborts (SIGABRT, or exit code 134 through a
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

  #deliver(end: Ended): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.(end);
  }

  #next(timeoutMs: number, send?: () => void): Promise<Ended | { kind: "timeout" }> {
    if (this.#dead) return Promise.resolve({ kind: "exited", detail: "the worker is gone" });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiter = null;
        resolve({ kind: "timeout" });
      }, timeoutMs);
      this.#waiter = (end) => {
        clearTimeout(timer);
        resolve(end);
      };
      send?.();
    });
  }

  /** Null once the worker is ready, else why it could not start. */
  async started(): Promise<string | null> {
    const end = await this.#next(READY_TIMEOUT_MS);
    if (end.kind === "message") return end.message.type === "ready" ? null : end.message.type === "start_failed" ? end.message.reason : "an unexpected first message";
    if (end.kind === "timeout") return `it did not load the grader within ${READY_TIMEOUT_MS / 1000} s`;
    if (end.kind === "out_of_memory") return "it ran out of memory loading the grader";
    return `it ended while loading the grader (${end.detail})`;
  }

  /** Judges one proposal; after anything but a result the worker is dead or must be closed. */
  async judge(proposal: string, id: string, timeoutMs: number): Promise<WorkerEnd> {
    const job: JudgeJob = { type: "judge", job: this.#nextJob++, proposal, id };
    const end = await this.#next(timeoutMs, () => this.#child.send(job));
    if (end.kind !== "message") return end;
    if (end.message.type === "result" && end.message.job === job.job) return { kind: "result", result: end.message.result };
    return { kind: "exited", detail: `unexpected message ${end.message.type}` };
  }

  /** SIGKILLs the worker (when alive) and waits until it is gone. */
  async close(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      // Held while it dies: with the worker unreferenced, a command whose last step is this
      // wait would otherwise find its event loop empty and end with Node's exit code 13.
      this.#child.ref();
      this.#child.kill("SIGKILL");
    }
    await this.#exited;
  }
}
