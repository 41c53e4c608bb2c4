/**
 * The harness's side of the check worker: one child process with a heap cap, one candidate
 * at a time, a wall clock per candidate. A candidate that exhausts a limit is an invalid
 * generation at the compile stage (`compile_timeout`, `compile_memory`, `compile_crash`);
 * the worker is replaced and the next candidate is checked by a fresh one.
 * The process itself, its limits and how its death is told apart are harness/src/worker's.
 */
import { fileURLToPath } from "node:url";
import { failure, type ValidationFailure } from "../results/index.js";
import { ErrorCode, EvolveError } from "../kernel/index.js";
import { BoundedProcess, type ProcessEnd } from "../worker/index.js";
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

type JobEnd = ProcessEnd<CheckWorkerMessage>;

interface LiveWorker {
  process: BoundedProcess<CheckWorkerMessage, CheckJob>;
  /** Resolves with the committed heap right after warm-up, or rejects with why it did not start. */
  ready: Promise<number>;
  /** The phase the current check is in (the worker says so as it goes). */
  phase: StaticPhase;
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
    // A worker that died between checks (it is unreferenced, so nothing waited on it) is replaced.
    if (this.#live !== null && this.#live.process.alive) return this.#live;
    this.started++;
    const live: LiveWorker = {
      process: new BoundedProcess<CheckWorkerMessage, CheckJob>({
        entry: WORKER_ENTRY,
        memoryMb: this.limits.memoryMb,
        // V8's memory reducer runs a full collection each time the worker falls idle, which
        // is after every check while candidates wait on a model; it gave no memory back here
        // (the RSS stayed at its peak) and cost ~0.05 CPU-s a check (bench/check-idle.ts).
        flags: ["--heap-growing-percent=20", "--no-memory-reducer"],
        aside: (message) => {
          if (message.type === "phase") live.phase = message.phase;
          return message.type === "phase";
        },
      }),
      ready: Promise.resolve(0),
      phase: "policy",
    };
    live.ready = live.process.next(READY_TIMEOUT_MS).then((end) => {
      if (end.kind === "message" && end.message.type === "ready") return end.message.heapMb;
      throw startFailure(end, this.limits);
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
    await live?.process.kill();
  }

  async #checkNow(request: StaticRequest): Promise<StaticOutcome> {
    if (this.#closed) throw new EvolveError("internal", "the validator was closed");
    const live = this.#worker();
    let warmHeapMb: number;
    try {
      warmHeapMb = await live.ready;
    } catch (error) {
      await this.#retire();
      throw error;
    }
    const id = this.#nextId++;
    live.phase = "policy";
    const started = performance.now();
    const end = await live.process.next(this.limits.timeoutMs, { type: "check", id, request });
    const elapsed = performance.now() - started;
    if (end.kind === "message" && end.message.type === "done" && end.message.id === id) {
      if (end.message.heapMb > warmHeapMb + RECYCLE_GROWTH_MB) await this.#replace();
      return end.message.outcome;
    }
    await this.#replace();
    const failure = limitFailure(end, live.phase, this.limits);
    if (failure === null) throw harnessError(end);
    return { ok: false, failure, timings: { compile: elapsed } };
  }
}

function limitFailure(end: JobEnd, phase: StaticPhase, limits: CheckLimits): ValidationFailure | null {
  const during = PHASE_WORDS[phase];
  if (end.kind === "timeout") {
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

function harnessError(end: JobEnd): EvolveError {
  if (end.kind === "message" && end.message.type === "harness_error") {
    const { code, message, hint, stack } = end.message;
    // A code the kernel does not know is a bug of the worker: reported as internal, with its words.
    const known = ErrorCode.safeParse(code);
    const error = new EvolveError(known.success ? known.data : "internal", message, hint === null ? {} : { hint });
    if (stack !== null) error.stack = stack;
    return error;
  }
  const detail = end.kind === "exited" ? end.detail : end.kind === "timeout" ? "no answer in time" : "an unexpected answer";
  return new EvolveError("internal", `the check worker failed: ${detail}`);
}

function startFailure(end: JobEnd, limits: CheckLimits): EvolveError {
  if (end.kind === "out_of_memory") {
    return new EvolveError("invalid_options", `the check worker ran out of memory while starting (limit ${limits.memoryMb} MiB)`, {
      hint: "raise --check-memory; the warm compiler alone needs about 200 MiB",
    });
  }
  if (end.kind === "message" && end.message.type === "harness_error") return harnessError(end);
  if (end.kind === "timeout") return new EvolveError("internal", `the check worker did not start within ${READY_TIMEOUT_MS / 1000} s`);
  return new EvolveError("internal", `the check worker failed to start: ${end.kind === "exited" ? end.detail : end.message.type}`);
}
