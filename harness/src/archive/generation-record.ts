/** generation.json: everything known about one attempted child (or the seed), valid or not. */
import { z } from "zod";
import { EvaluationResult, InvalidStatus } from "../results/index.js";
import { GenerationApproval } from "./approval-record.js";
import { GenerationId, Timestamp } from "./generation-id.js";

export const GENERATION_SCHEMA_VERSION = 1;

/**
 * valid and invalid: what the checks said. duplicate: the child's tree is byte for byte an
 * earlier generation's (`of`, the first with that snapshot), so it was neither checked nor
 * evaluated again; its scores are `of`'s (read through the link, not copied), and it is
 * never a parent (its tree already is one, or was judged).
 */
export const GenerationStatus = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("valid") }),
  InvalidStatus,
  z.object({ kind: z.literal("duplicate"), of: GenerationId }),
]);
export type GenerationStatus = z.infer<typeof GenerationStatus>;

export const ScoreSummary = z.object({
  visible: z.number().nullable(),
  heldout: z.number().nullable(),
  stage1: z.number().nullable(),
});
export type ScoreSummary = z.infer<typeof ScoreSummary>;

export const ChangedFile = z.object({
  path: z.string().min(1),
  change: z.enum(["added", "modified", "deleted"]),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
});
export type ChangedFile = z.infer<typeof ChangedFile>;

const Ms = z.number().nonnegative();

/** Milliseconds per phase; the named phases are typed, others may be added. */
export const PhaseTimings = z
  .object({
    select: Ms,
    materialise: Ms,
    selfModify: Ms,
    extract: Ms,
    policy: Ms,
    compile: Ms,
    signature: Ms,
    import: Ms,
    evaluate: Ms,
    record: Ms,
    total: Ms,
  })
  .partial()
  .catchall(Ms);
export type PhaseTimings = z.infer<typeof PhaseTimings>;

export const TokenUsage = z.object({
  prompt: z.number().int().nonnegative(),
  completion: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/**
 * The task agent's own LLM calls while this generation was evaluated (a task whose manifest
 * says needsModel), its ctx.evaluate drafts' included: apart from `tokens` and `costUsd`,
 * which are the meta agent's. Each call is a line of the generation's solve-transcript.jsonl.
 */
export const SolveUsage = z.object({
  calls: z.number().int().nonnegative(),
  tokens: TokenUsage,
  /** Null when the model's prices are unknown. */
  costUsd: z.number().nonnegative().nullable(),
  /** The first this many lines of solve-transcript.jsonl are the meta agent's ctx.evaluate drafts'; the rest, the generation's own evaluation. */
  draftEntries: z.number().int().nonnegative().default(0),
});
export type SolveUsage = z.infer<typeof SolveUsage>;

/** The meta agent's ctx.evaluate calls in one generation (each is a line of its transcript). */
export const EvaluateCalls = z.object({
  /** Every call, refused ones included. */
  calls: z.number().int().nonnegative(),
  /** Calls that ran the checks (and the evaluation when they passed): what the per-generation count spends. */
  counted: z.number().int().nonnegative(),
  /** Containers they started (import checks and evaluations). */
  containers: z.number().int().nonnegative(),
  /** Host time spent answering them; the self-modification container waited meanwhile. */
  durationMs: Ms,
});
export type EvaluateCalls = z.infer<typeof EvaluateCalls>;
/** Which engines ran each phase (self-modify, validate, evaluate-stage1, ...), in order; runs on named engines only. */
export const EnginePlacements = z.record(z.string().min(1).max(100), z.array(z.string().min(1).max(100)).min(1).max(64));
export type EnginePlacements = z.infer<typeof EnginePlacements>;

export const GenerationRecord = z.object({
  schemaVersion: z.literal(GENERATION_SCHEMA_VERSION),
  id: GenerationId,
  /** Null for generation 0 (the seed, or the branch point of a `--from` run). */
  parent: GenerationId.nullable(),
  depth: z.number().int().nonnegative(),
  status: GenerationStatus,
  /** Null when the generation never reached evaluation. */
  evaluation: EvaluationResult.nullable(),
  scores: ScoreSummary,
  /** One line from the meta agent's report (capped by the caller), null if it gave none. */
  summary: z.string().nullable(),
  changedFiles: z.array(ChangedFile),
  tokens: TokenUsage,
  /** Null when the model's prices are unknown. */
  costUsd: z.number().nonnegative().nullable(),
  timings: PhaseTimings,
  model: z.string().nullable(),
  /** sha256 of snapshot/ (see snapshotHash); null when nothing usable came back. */
  snapshotHash: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  seed: z.number().int(),
  /** Absent when the meta agent could not call ctx.evaluate (older records, the seed). */
  evaluateCalls: EvaluateCalls.optional(),
  /** Absent when the task agent had no model at solve time (a task without needsModel, older records). */
  solve: SolveUsage.optional(),
  createdAt: Timestamp,
  /**
   * Present when the run's policy made this (valid) child wait for a person: it is not a
   * parent, the best or a branch point until approved. Absent: no approval was needed.
   */
  approval: GenerationApproval.optional(),
  /** Absent in archives from before several engines, and on one engine alone. */
  engines: EnginePlacements.optional(),
  /**
   * The earlier generations its improve request listed as attempts, in the order shown (so a
   * replay rebuilds the same request); absent when it listed none.
   */
  attempts: z.array(GenerationId).max(64).optional(),
});
export type GenerationRecord = z.infer<typeof GenerationRecord>;
