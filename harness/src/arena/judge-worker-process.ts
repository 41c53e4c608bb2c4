/**
 * The harness's handle on one judge worker process (judge-worker.ts): started with a heap cap,
 * one job at a time, a wall clock per job, SIGKILLed on a limit (harness/src/worker's
 * BoundedProcess, as the validation's check worker).
 */
import { fileURLToPath } from "node:url";
import { BoundedProcess } from "../worker/index.js";
import type { JudgeJob, JudgeResult, JudgeWorkerMessage } from "./judge-protocol.js";

const WORKER_ENTRY = fileURLToPath(new URL("./judge-worker-entry.mjs", import.meta.url));
/** Start-up (tsx, zod, the grader and what it imports) is not the proposal's time; this bounds it. */
const READY_TIMEOUT_MS = 60_000;

/** How a job ended. */
export type WorkerEnd =
  | { kind: "result"; result: JudgeResult }
  | { kind: "timeout" }
  | { kind: "out_of_memory" }
  | { kind: "exited"; detail: string };

export class JudgeWorker {
  readonly #process: BoundedProcess<JudgeWorkerMessage, JudgeJob>;
  #nextJob = 0;

  constructor(graderPath: string, memoryMb: number) {
    this.#process = new BoundedProcess({ entry: WORKER_ENTRY, args: [graderPath], memoryMb });
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  /** Null once the worker is ready, else why it could not start. */
  async started(): Promise<string | null> {
    const end = await this.#process.next(READY_TIMEOUT_MS);
    if (end.kind === "message") return end.message.type === "ready" ? null : end.message.type === "start_failed" ? end.message.reason : "an unexpected first message";
    if (end.kind === "timeout") return `it did not load the grader within ${READY_TIMEOUT_MS / 1000} s`;
    if (end.kind === "out_of_memory") return "it ran out of memory loading the grader";
    return `it ended while loading the grader (${end.detail})`;
  }

  /** Judges one proposal; after anything but a result the worker is dead or must be closed. */
  async judge(proposal: string, id: string, timeoutMs: number): Promise<WorkerEnd> {
    const job: JudgeJob = { type: "judge", job: this.#nextJob++, proposal, id };
    const end = await this.#process.next(timeoutMs, job);
    if (end.kind !== "message") return end;
    if (end.message.type === "result" && end.message.job === job.job) return { kind: "result", result: end.message.result };
    return { kind: "exited", detail: `unexpected message ${end.message.type}` };
  }

  /** SIGKILLs the worker (when alive) and waits until it is gone. */
  close(): Promise<void> {
    return this.#process.kill();
  }
}
