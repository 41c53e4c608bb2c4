/**
 * The oracle interface: trusted code a task's grader.ts may export beside its grader. In an
 * arena run it turns a test agent's proposal (hostile JSON) into an instance carrying the
 * right answer, or refuses it. The harness runs `judge` in a bounded child process
 * (harness/src/arena/judge-proposals.ts), never in its own.
 */
import type { z } from "zod";
import type { TaskInstance } from "./grader.js";

/** What `judge` says about one proposal. */
export type Judgement<I extends TaskInstance = TaskInstance> =
  | { ok: true; instance: I; verdict: string }
  | { ok: false; reason: string };

/** A task's trusted oracle; `judge` must be deterministic and must not throw on a parsed proposal. */
export interface Oracle<P = unknown, I extends TaskInstance = TaskInstance> {
  /** What a proposal is, in words: test agents read it. */
  readonly description: string;
  /** Parses one proposal (after the count and size caps). */
  readonly proposalSchema: z.ZodType<P>;
  /** perRound: proposals read per test generation (1..100); maxBytes: one proposal's size as JSON (1..65536). */
  readonly limits: { readonly perRound: number; readonly maxBytes: number };
  /** A candidate scoring below it fails a test (0 < passScore ≤ 1; default 1). */
  readonly passScore?: number;
  /** The instance (with `id` as its id) and a one-line ruling, or a refusal with its reason. */
  judge(proposal: P, id: string): Judgement<I> | Promise<Judgement<I>>;
}

/** Identity helper that infers the proposal and instance types. */
export function defineOracle<P, I extends TaskInstance>(oracle: Oracle<P, I>): Oracle<P, I> {
  return oracle;
}

/** Bounds of `Oracle.limits`, shared by the shape check and the docs. */
export const ORACLE_LIMITS = { perRound: { min: 1, max: 100 }, maxBytes: { min: 1, max: 65_536 } } as const;
