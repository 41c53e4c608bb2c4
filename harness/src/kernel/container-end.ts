/**
 * How a call into a container ended without the answer it was for: the one vocabulary of
 * every container outcome (an import check, an improve, a solve call, a propose). Each
 * outcome names the kinds that can happen to it, as a subset of this union.
 */
import { z } from "zod";

export const ContainerEndKind = z.enum([
  /** The wall clock ran out (loading included). */
  "timeout",
  /** Killed at the memory limit. */
  "oom",
  /** Stdout flooded past its cap, or the answer is larger than its cap. */
  "output_too_large",
  /** The process ended, or was killed, before it answered. */
  "crash",
  /** A stdout line that is not a protocol message, or a message out of turn. */
  "protocol",
  /** The agent's module threw while loading. */
  "load_error",
  /** The export the call needs is missing or not a function. */
  "not_a_function",
  /** The agent's function threw, or returned what is not JSON. */
  "error",
]);
export type ContainerEndKind = z.infer<typeof ContainerEndKind>;

/** A call that gave no answer: of which kind, and why in words. */
export interface ContainerEnd<K extends ContainerEndKind = ContainerEndKind> {
  ok: false;
  kind: K;
  reason: string;
}
