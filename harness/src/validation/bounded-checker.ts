/**
 * The harness's side of the check worker: one child process with a heap cap, one candidate
 * at a time, a wall clock per candidate. A candidate that exhausts a limit is an invalid
 * generation at the compile stage (`compile_timeout`, `compile_memory`, `compile_crash`);
 * the worker is replaced and the next candidate is checked by a fresh one.
 *
 * A process rather than a worker thread: a thread's resourceLimits usually end it cleanly,
 * but a large allocation near the limit can make V8 abort the whole process (seen in the
 * security suite: "CALL_AND_RETRY_LAST Allocation failed"), which must not be the harness.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { failure, type ValidationFailure } from "../results/index.js";
import { EvolveError, type ErrorCode } from "../errors/index.js";
import type { CheckJob, CheckWorkerMessage } from "./check-protocol.js";
import { CheckLimits } from "./check-limits.js";
import type { StaticOutcome, StaticPhase, StaticRequest } from "./static-checks.js";

const WORKER_ENTRY = fileURLToPath(new URL("./check-worker-entry.mjs", import.meta.url));

/** Start-up of a worker (tsx, ts-morph, the lib files) is not the candidate's time; this bounds it. */
const READY_TIMEOUT_MS = 120_000;

/**
 * A worker whose heap grew this far past its warm size (a big but legal tree) is replaced
 * after the check: V8 rarely gives the memory back, and it counts in the harness's RSS.
 */
const RECYCLE_GROWTH_MB = 160;

const PHASE_WORDS: Record<StaticPhase, string> = {
  policy: "the policy check",
  compile: "type-checking",
  signature: "the signature check",
};

/** What the worker does next: answer the job, or die trying. */
type JobEnd =
  | { kind: "message"; message: CheckWorkerMessage }
  | { kind: "out_of_memory" }
  | { kind: "exited"; detail: string };

interface LiveWorker {
  worker: ChildProcess;
  ready: Promise<void>;
  /** Resolved by the worker's next answer or death; replaced per job. */
  waiter: ((end: JobEnd) => void) | null;
  phase: StaticPhase;
  /** Committed heap right after warm-up. */
  warmHeapMb: number;
}

/** Runs static checks in a resource-limited worker process, one candidate at a time. */
export class BoundedChecker {
  readonly limits: CheckLimits;
  #live: LiveWorker | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 0;
  #closed = false;
  /** Workers started so far: for tests and the bench. */
  started = 0;
  /** Workers replaced after a limit, a checker crash or heap growth. */
  recycled = 0;

  constructor(limits: CheckLimits) {
    this.limits = CheckLimits.parse(limits);
  }

  /** Gates 0–2 of one candidate under the limits; queued behind any check in progress. */
  check(request: StaticRequest): Promise<StaticOutcome> {
    const run = this.#queue.then(() => this.#checkNow(request));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Starts the worker ahead of the first check (its warm-up overlaps other work). */
  warm(): void {
    if (!this.#closed) void this.#worker().ready.catch(() => undefined);
  }

  /**
   * Stops the worker; later checks are refused. A check in progress finishes first, unless
   * `now` (a command that is giving up: the check fails, and nothing waits for it).
   */
  async close(options: { now?: boolean } = {}): Promise<void> {
    this.#closed = true;
    if (options.now === true) await this.#retire();
    await this.#queue;
    await this.#retire();
  }

  #worker(): LiveWorker {
    if (this.#live !== null) return this.#live;
    this.started++;
    // Only the worker's own flags: none of the harness's (a test runner's, an inspector's).
    const worker = fork(WORKER_ENTRY, [], {
      execArgv: [`--max-old-space-size=${this.limits.memoryMb}`, "--max-semi-space-size=4", "--heap-growing-percent=20"],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    // Its last words on stderr say how it died (V8's out-of-memory report); capped.
    let stderr = "";
    worker.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 16_384) stderr += chunk.toString("utf8");
    });
    // An idle worker must not keep a finished command alive; a pending check's timer does.
    // Its stderr pipe is a handle of its own: left referenced, it held every refused run open.
    worker.unref();
    worker.channel?.unref();
    (worker.stderr as { unref?: () => void } | null)?.unref?.();
    const live: LiveWorker = { worker, ready: Promise.resolve(), waiter: null, phase: "policy", warmHeapMb: 0 };
    const deliver = (end: JobEnd): void => {
      const waiter = live.waiter;
      live.waiter = null;
      waiter?.(end);
    };
    live.ready = new Promise<void>((resolve, reject) => {
      live.waiter = (end) => {
        if (end.kind === "message" && end.message.type === "ready") {
          live.warmHeapMb = end.message.heapMb;
          resolve();
        } else reject(startFailure(end, this.limits));
      };
    });
    worker.on("message", (message: CheckWorkerMessage) => {
      if (message.type === "phase") live.phase = message.phase;
      else deliver({ kind: "message", message });
    });
    worker.on("error", (error) => deliver({ kind: "exited", detail: error.message }));
    worker.on("exit", (code, signal) => {
      if (this.#live === live) this.#live = null;
      deliver(outOfMemory(code, signal, stderr) ? { kind: "out_of_memory" } : { kind: "exited", detail: signal === null ? `exit code ${code}` : `signal ${signal}` });
    });
    this.#live = live;
    return live;
  }

  /** Retires the worker and starts its successor at once, so it is warm by the next check. */
  async #replace(): Promise<void> {
    await this.#retire();
    this.recycled++;
    this.warm();
  }

  async #retire(): Promise<void> {
    const live = this.#live;
    this.#live = null;
    if (live === null || live.worker.exitCode !== null || live.worker.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => live.worker.once("exit", () => resolve()));
    // Held while it dies: with the worker unreferenced, a command whose last step is this
    // wait would otherwise find its event loop empty and end with Node's exit code 13.
    live.worker.ref();
    live.worker.kill("SIGKILL");
    await exited;
  }

  async #checkNow(request: StaticRequest): Promise<StaticOutcome> {
    if (this.#closed) throw new EvolveError("internal", "the validator was closed");
    const live = this.#worker();
    try {
      await waitWithTimeout(live.ready, READY_TIMEOUT_MS, "the check worker did not start");
    } catch (error) {
      await this.#retire();
      throw error;
    }
    const id = this.#nextId++;
    live.phase = "policy";
    const started = performance.now();
    const end = await new Promise<JobEnd | "timeout">((resolve) => {
      const timer = setTimeout(() => resolve("timeout"), this.limits.timeoutMs);
      live.waiter = (jobEnd) => {
        clearTimeout(timer);
        resolve(jobEnd);
      };
      const job: CheckJob = { type: "check", id, request };
      live.worker.send(job);
    });
    const elapsed = performance.now() - started;
    if (end !== "timeout" && end.kind === "message" && end.message.type === "done" && end.message.id === id) {
      if (end.message.heapMb > live.warmHeapMb + RECYCLE_GROWTH_MB) await this.#replace();
      return end.message.outcome;
    }
    await this.#replace();
    const failure = limitFailure(end, live.phase, this.limits);
    if (failure === null) throw harnessError(end);
    return { ok: false, failure, timings: { compile: elapsed } };
  }
}

/** V8 out of heap: it prints its fatal report and aborts (SIGABRT, or exit code 134 through a shell). */
function outOfMemory(code: number | null, signal: NodeJS.Signals | null, stderr: string): boolean {
  return (signal === "SIGABRT" || code === 134) && /heap out of memory|Allocation failed/i.test(stderr);
}

function limitFailure(end: JobEnd | "timeout", phase: StaticPhase, limits: CheckLimits): ValidationFailure | null {
  const during = PHASE_WORDS[phase];
  if (end === "timeout") {
    const seconds = limits.timeoutMs / 1000;
    return failure("compile", "compile_timeout", `the checks did not finish within the time limit of ${seconds} s (stopped during ${during}; --check-timeout)`);
  }
  if (end.kind === "out_of_memory") {
    return failure("compile", "compile_memory", `the checks ran out of their memory limit of ${limits.memoryMb} MiB (during ${during}; --check-memory)`);
  }
  if (end.kind === "message" && end.message.type === "checker_crash") {
    return failure("compile", "compile_crash", `the type checker broke on this tree during ${PHASE_WORDS[end.message.phase]}: ${end.message.message}`);
  }
  return null;
}

function harnessError(end: JobEnd | "timeout"): EvolveError {
  if (end !== "timeout" && end.kind === "message" && end.message.type === "harness_error") {
    const { code, message, hint, stack } = end.message;
    const error = new EvolveError(code as ErrorCode, message, hint === null ? {} : { hint });
    if (stack !== null) error.stack = stack;
    return error;
  }
  const detail = end !== "timeout" && end.kind === "exited" ? end.detail : "an unexpected answer";
  return new EvolveError("internal", `the check worker failed: ${detail}`);
}

function startFailure(end: JobEnd, limits: CheckLimits): EvolveError {
  if (end.kind === "out_of_memory") {
    return new EvolveError("invalid_options", `the check worker ran out of memory while starting (limit ${limits.memoryMb} MiB)`, {
      hint: "raise --check-memory; the warm compiler alone needs about 200 MiB",
    });
  }
  if (end.kind === "message" && end.message.type === "harness_error") return harnessError(end);
  return new EvolveError("internal", `the check worker failed to start: ${end.kind === "exited" ? end.detail : end.message.type}`);
}

async function waitWithTimeout(promise: Promise<void>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EvolveError("internal", `${what} within ${ms / 1000} s`)), ms);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
