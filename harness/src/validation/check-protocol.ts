/** Messages between the harness and its check worker (both trusted code; the data inside is not). */
import type { StaticOutcome, StaticPhase, StaticRequest } from "./static-checks.js";

/** Harness → worker: check one candidate. */
export interface CheckJob {
  type: "check";
  id: number;
  request: StaticRequest;
}

/** Worker → harness. */
export type CheckWorkerMessage =
  /** The compiler is warm: lib files, @types/node and the contract parsed. */
  | { type: "ready"; heapMb: number }
  | { type: "phase"; id: number; phase: StaticPhase }
  /** `heapMb`: the worker's committed heap afterwards, so a worker a big tree inflated can be recycled. */
  | { type: "done"; id: number; outcome: StaticOutcome; heapMb: number }
  /** The checker itself broke on this tree (stack overflow, a TypeScript assertion): the candidate's doing. */
  | { type: "checker_crash"; id: number; phase: StaticPhase; message: string }
  /** The harness failed (an EvolveError, or a bug): never recorded as the agent's fault. */
  | { type: "harness_error"; id: number; code: string; message: string; hint: string | null; stack: string | null };
