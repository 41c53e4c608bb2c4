/**
 * The main thread's hold on the worker thread a candidate's module runs in: one operation at
 * a time (load, then calls), each with a wall clock; the thread's heap is capped and its
 * console output counted. Whatever the thread does (posts odd messages, loops, exits, runs
 * out of memory, floods) ends the operation with a kind and a reason; the worker is then
 * terminated and a later call gets a fresh thread.
 */
import { Worker } from "node:worker_threads";
import { OUTPUT_EXCERPT_CHARS, REASON_CHARS, type CallFailureKind } from "./exec-protocol.js";

export type Ending = { ok: true; value: unknown } | { ok: false; kind: CallFailureKind; reason: string };

/** The candidate's console output over every thread of one container: an excerpt and a count. */
export class OutputTap {
  excerpt = "";
  bytes = 0;
  constructor(readonly capBytes: number) {}
  /** Takes a chunk; false once the total is past the cap. */
  take(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    if (this.excerpt.length < OUTPUT_EXCERPT_CHARS) this.excerpt += chunk.toString("utf8").slice(0, OUTPUT_EXCERPT_CHARS - this.excerpt.length);
    return this.bytes <= this.capBytes;
  }
}

export interface ThreadLimits {
  timeoutMs: number;
  memoryMb: number;
}

/** Network errors a no-network container gives, and the worker bootstrap's own. */
const NETWORK_CODES = new Set(["ERR_NETWORK_DENIED", "ENETUNREACH", "EHOSTUNREACH", "EAI_AGAIN", "ENOTFOUND", "ECONNREFUSED"]);

function cut(text: string): string {
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text;
}

/** A thrown error as the worker described it (hostile shape) to a kind and a reason. */
export function thrownEnding(info: unknown, unsendable: boolean): Ending {
  const field = (key: string): string => {
    const v = typeof info === "object" && info !== null ? (info as Record<string, unknown>)[key] : undefined;
    return typeof v === "string" ? v : "";
  };
  const code = field("code");
  const words = `${field("name") || "Error"}: ${field("message")}${code ? ` (${code})` : ""}${field("stack") ? `\n${field("stack")}` : ""}`;
  if (code === "ERR_ACCESS_DENIED") return { ok: false, kind: "denied", reason: cut(`the solution tried to reach the file system or another process: ${words}`) };
  if (NETWORK_CODES.has(code)) return { ok: false, kind: "denied", reason: cut(`the solution tried to reach the network: ${words}`) };
  if (unsendable) return { ok: false, kind: "unsendable", reason: cut(`the value cannot leave the solution's thread (a function or a symbol?): ${words}`) };
  return { ok: false, kind: "threw", reason: cut(`threw ${words}`) };
}

type Expect = { type: "loaded" } | { type: "result"; id: number };

export class SolutionThread {
  readonly #worker: Worker;
  #settle: ((ending: Ending) => void) | null = null;
  #expect: Expect | null = null;
  #dead = false;

  readonly #tap: OutputTap;

  constructor(workerFile: URL, url: string, memoryMb: number, tap: OutputTap) {
    this.#tap = tap;
    this.#worker = new Worker(workerFile, {
      workerData: { url, outputCapBytes: Math.max(0, tap.capBytes - tap.bytes) },
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    const onOutput = (chunk: Buffer): void => {
      if (!tap.take(chunk)) this.#end({ ok: false, kind: "flood", reason: `the solution printed more than ${tap.capBytes} bytes` });
    };
    this.#worker.stdout.on("data", onOutput);
    this.#worker.stderr.on("data", onOutput);
    this.#worker.on("message", (message: unknown) => this.#message(message));
    // An uncaught error (in a timer callback, say) ends the thread: the call fails as thrown.
    this.#worker.on("error", (error: Error & { code?: string }) =>
      this.#end(
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? { ok: false, kind: "memory", reason: `the solution ran out of its ${memoryMb} MiB heap` }
          : { ok: false, kind: "threw", reason: cut(`an uncaught error ended the solution's thread: ${error.name}: ${error.message}`) },
        true,
      ),
    );
    this.#worker.on("exit", (code) => this.#end({ ok: false, kind: "exited", reason: `the solution ended its thread (process.exit, code ${code})` }, true));
  }

  get dead(): boolean {
    return this.#dead;
  }

  /** Waits for the module to load (its top-level code runs now). */
  load(timeoutMs: number): Promise<Ending> {
    return this.#begin({ type: "loaded" }, timeoutMs, () => undefined);
  }

  call(id: number, name: string, args: unknown[], timeoutMs: number): Promise<Ending> {
    return this.#begin({ type: "result", id }, timeoutMs, () => this.#worker.postMessage({ id, export: name, args }));
  }

  async dispose(): Promise<void> {
    this.#dead = true;
    await this.#worker.terminate();
  }

  #begin(expect: Expect, timeoutMs: number, start: () => void): Promise<Ending> {
    if (this.#dead) return Promise.resolve({ ok: false, kind: "threw", reason: "the solution's thread has ended" });
    return new Promise<Ending>((resolve) => {
      const timer = setTimeout(() => this.#end({ ok: false, kind: "timeout", reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
      this.#expect = expect;
      this.#settle = (ending) => {
        clearTimeout(timer);
        resolve(ending);
      };
      start();
    });
  }

  /** Settles the operation in progress; a stopping kind (or `threadGone`) also ends the thread. */
  #end(ending: Ending, threadGone = false): void {
    const settle = this.#settle;
    this.#settle = null;
    this.#expect = null;
    const fatal = !ending.ok && ending.kind !== "threw" && ending.kind !== "unsendable" && ending.kind !== "too_large";
    if (fatal || threadGone) {
      this.#dead = true;
      void this.#worker.terminate();
    }
    settle?.(ending);
  }

  /** A message of the worker (whose realm the candidate shares): only the awaited one counts. */
  #message(message: unknown): void {
    if (typeof message !== "object" || message === null || this.#expect === null) return;
    const m = message as Record<string, unknown>;
    if (m["type"] === "flood") return this.#end({ ok: false, kind: "flood", reason: `the solution printed more than ${this.#tap.capBytes} bytes` });
    if (this.#expect.type === "loaded") {
      if (m["type"] === "loaded") this.#end({ ok: true, value: undefined });
      else if (m["type"] === "load-error") {
        const ending = thrownEnding(m["error"], false);
        this.#end(ending.ok ? ending : { ...ending, reason: cut(`while loading: ${ending.reason}`) });
      }
      return;
    }
    if (m["type"] !== "result" || m["id"] !== this.#expect.id) return;
    this.#end(m["ok"] === true ? { ok: true, value: m["value"] } : thrownEnding(m["error"], m["unsendable"] === true));
  }
}
