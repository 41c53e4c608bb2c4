/**
 * The arena's archive records (README.md, "Archive"): a test generation (tester.json) and a
 * round (rounds/rNNNN.json). Everything here is read back through zod like every record.
 */
import { z } from "zod";
import { ChangedFile, GenerationId, PhaseTimings, TokenUsage, Timestamp } from "../archive/index.js";
import { InvalidStatus } from "../results/index.js";
import { WireJson } from "../kernel/index.js";
import { DiscardCode } from "./discard-code.js";

export const ARENA_SCHEMA_VERSION = 1;

export const TesterId = z.string().regex(/^t\d{4,}$/, 'a test generation id looks like "t0003"');
export type TesterId = z.infer<typeof TesterId>;

/** The id of the n-th test generation (0 is the seed's tester). */
export function formatTesterId(n: number): string {
  return `t${String(n).padStart(4, "0")}`;
}

export function parseTesterId(id: string): number | null {
  const digits = /^t(\d{4,})$/.exec(id)?.[1];
  return digits === undefined ? null : Number(digits);
}

/** An arena test's id: `arena-<tester>-<k>`, k the 1-based index of the proposal. */
export const ArenaTestId = z.string().regex(/^arena-t\d{4,}-\d{1,3}$/);

/** What became of one proposal of a test generation. */
export const ProposalOutcome = z.discriminatedUnion("outcome", [
  z.object({ index: z.number().int().nonnegative(), outcome: z.literal("admitted"), test: ArenaTestId }),
  z.object({ index: z.number().int().nonnegative(), outcome: z.literal("discarded"), code: DiscardCode, reason: z.string().max(600) }),
]);
export type ProposalOutcome = z.infer<typeof ProposalOutcome>;

/** How the tester's `propose` call ended; null when the tree never got that far. */
export const ProposeCall = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), returned: z.number().int().nonnegative(), durationMs: z.number().nonnegative() }),
  z.object({ ok: z.literal(false), reason: z.string().max(600), durationMs: z.number().nonnegative() }),
]);
export type ProposeCall = z.infer<typeof ProposeCall>;

export const TesterRecord = z.object({
  schemaVersion: z.literal(ARENA_SCHEMA_VERSION),
  id: TesterId,
  /** Null for t0000, the seed's tree as it is. */
  parent: TesterId.nullable(),
  round: z.number().int().positive(),
  status: z.discriminatedUnion("kind", [z.object({ kind: z.literal("valid") }), InvalidStatus]),
  summary: z.string().nullable(),
  changedFiles: z.array(ChangedFile),
  snapshotHash: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  seed: z.number().int(),
  tokens: TokenUsage,
  costUsd: z.number().nonnegative().nullable(),
  model: z.string().nullable(),
  timings: PhaseTimings,
  propose: ProposeCall.nullable(),
  proposals: z.array(ProposalOutcome),
  /** Its fitness: proposals that entered the suite. */
  admitted: z.number().int().nonnegative(),
  createdAt: Timestamp,
});
export type TesterRecord = z.infer<typeof TesterRecord>;

/** A test's instance as the grader runs it: the grader's instanceSchema parsed it, and it carries its test id. */
export const ArenaInstance = z.object({ id: z.string() }).catchall(WireJson);
export type ArenaInstance = z.infer<typeof ArenaInstance>;

/** One test of the suite: the instance the oracle made, and where it came from. */
export const ArenaTest = z.object({
  id: ArenaTestId,
  instance: ArenaInstance,
  proposal: WireJson,
  proposedBy: TesterId,
  round: z.number().int().positive(),
  /** The oracle's ruling in words. */
  verdict: z.string().max(300),
});
export type ArenaTest = z.infer<typeof ArenaTest>;

/** A candidate's result on one arena test. */
export const TestOutcome = z.object({ score: z.number().min(0).max(1), feedback: z.string().max(300) });
export type TestOutcome = z.infer<typeof TestOutcome>;

/** Candidate → test → outcome. */
export const OutcomeMatrix = z.record(GenerationId, z.record(ArenaTestId, TestOutcome));
export type OutcomeMatrix = z.infer<typeof OutcomeMatrix>;

/** The best code candidate at one moment of a round: scores on the suite, visible only, visible + suite, held-out. */
export const RoundStanding = z.object({
  best: GenerationId,
  suite: z.number().nullable(),
  visible: z.number().nullable(),
  arena: z.number().nullable(),
  heldout: z.number().nullable(),
});
export type RoundStanding = z.infer<typeof RoundStanding>;

export const RoundRecord = z.object({
  schemaVersion: z.literal(ARENA_SCHEMA_VERSION),
  round: z.number().int().positive(),
  /** "tests": the test phase is recorded and the code phase under way; "complete": both. */
  phase: z.enum(["tests", "complete"]),
  testers: z.array(TesterId),
  /** Number of the first generation allocated to this round's code phase. */
  codeFrom: z.number().int().nonnegative(),
  children: z.array(GenerationId),
  /** The tests in force for this round's code phase. */
  suite: z.array(ArenaTest),
  admitted: z.array(ArenaTestId),
  /** "admission": pushed out by the cap when tests landed; "end": every candidate passed it after the code phase. */
  retired: z.array(z.object({ id: ArenaTestId, when: z.enum(["admission", "end"]), reason: z.string().max(300) })),
  codePopulation: z.array(GenerationId).min(1),
  testPopulation: z.array(TesterId).min(1),
  matrix: OutcomeMatrix,
  /** Right after the tests landed (before code adapts), and after the code phase. */
  standing: z.object({ afterTests: RoundStanding, afterCode: RoundStanding.nullable() }),
  updatedAt: Timestamp,
});
export type RoundRecord = z.infer<typeof RoundRecord>;
