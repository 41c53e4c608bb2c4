/**
 * The stdio protocol of a code-test container: a grader's trusted tests run against a
 * candidate's TypeScript answer (source text), in a fresh hardened container of its own.
 *
 * The host sends one `exec` line; the runner (exec-main.ts, trusted, in the image) type-checks
 * the source against the declared exports, loads the emitted JS in a worker thread, and calls
 * the exports with the tests' arguments one at a time. Only the *values* come back: what the
 * tests expect never enters the container, so code that tampers with its own process cannot
 * make a test pass; the host compares (harness/src/evaluation/code-tests.ts).
 *
 * Runner → host, one JSON object a line, in this order: started, compiled, (loaded, result*)
 * when it compiled, done. Anything else on stdout is a protocol violation.
 */
import type { WireJson } from "./protocol.js";

/** The entry of a code-test container and its worker bootstrap, beside the runner's main.js. */
export const EXEC_ENTRY = "exec-main.js";
export const EXEC_WORKER = "exec-worker.js";

/** One export the answer must have, with its type as TypeScript text (trusted, from the task). */
export interface ExecExport {
  name: string;
  type: string;
}

/** One call of an export with arguments (plain JSON; the tests' expected values stay on the host). */
export interface ExecCall {
  id: number;
  export: string;
  args: WireJson[];
}

export interface ExecRequest {
  type: "exec";
  /** The candidate's TypeScript module, as text. Hostile. */
  source: string;
  /** Trusted declarations the export types may name (e.g. `type Point = { x: number; y: number };`). */
  declarations: string;
  exports: ExecExport[];
  calls: ExecCall[];
  /** Wall clock of starting the worker thread and loading the module (its top-level code). */
  loadTimeoutMs: number;
  /** Wall clock of each call. */
  callTimeoutMs: number;
  /** Old-generation heap of the worker thread the candidate runs in. */
  workerMemoryMb: number;
  /** Console output of the candidate (all calls together) past which its thread is stopped as a flood. */
  outputCapBytes: number;
  /** Largest value of one call, as JSON. */
  valueCapBytes: number;
}

/**
 * Why a call gave no value. threw: an exception (the next call runs); unsendable: a value that
 * cannot leave the thread (a function, a symbol); too_large: past valueCapBytes. The others
 * stop the run (STOPPING_KINDS): timeout, exited (process.exit), memory (the thread's heap
 * limit), flood (console output past the cap), denied (the file system, a process or the network).
 */
export type CallFailureKind = "threw" | "unsendable" | "too_large" | "timeout" | "exited" | "memory" | "flood" | "denied";

/** After one of these no further call is made: the remaining ones are not run. */
export const STOPPING_KINDS: readonly CallFailureKind[] = ["timeout", "exited", "memory", "flood", "denied"];

export type ExecMessage =
  /** The request arrived; the compile phase begins. */
  | { type: "started" }
  | { type: "compiled"; ok: true; ms: number }
  /** Type errors, syntax errors or a missing or mistyped export: capped lines, `solution.ts(3,5): error TS2322: …`. */
  | { type: "compiled"; ok: false; errors: string[]; ms: number }
  | { type: "loaded"; ok: true; ms: number }
  | { type: "loaded"; ok: false; kind: CallFailureKind; reason: string; ms: number }
  | { type: "result"; id: number; ok: true; value: WireJson; ms: number }
  | { type: "result"; id: number; ok: false; kind: CallFailureKind; reason: string; ms: number }
  /** The end: the candidate's console output (an excerpt) and how much there was in all. */
  | { type: "done"; output: string; outputBytes: number };

/** At most this many compiler messages, each at most COMPILE_ERROR_CHARS, come back. */
export const MAX_COMPILE_ERRORS = 8;
export const COMPILE_ERROR_CHARS = 400;
/** The candidate's console output kept for the host (the rest is only counted). */
export const OUTPUT_EXCERPT_CHARS = 2_000;
/** A reason (an exception's message and stack lines) is at most this long. */
export const REASON_CHARS = 600;
