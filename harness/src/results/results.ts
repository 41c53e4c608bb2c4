/**
 * Results shared by validation, evaluation, the archive and the report. Each is a zod
 * schema and its inferred type under one name: records are read back through these.
 */
import { z } from "zod";
import { WireJson } from "../kernel/index.js";
import { RaceRecord } from "./race.js";

// ---- validation -------------------------------------------------------------------------

/** Milliseconds spent in each gate that ran. */
export const ValidationTimings = z.object({
  policy: z.number().optional(),
  compile: z.number().optional(),
  signature: z.number().optional(),
  import: z.number().optional(),
});
export type ValidationTimings = z.infer<typeof ValidationTimings>;

// ---- evaluation -------------------------------------------------------------------------

export const Split = z.enum(["visible", "heldout"]);
export type Split = z.infer<typeof Split>;

/** stage1: small visible subset; visible: the rest of the visible split; heldout: never shown. */
export const EvaluationStage = z.enum(["stage1", "visible", "heldout"]);
export type EvaluationStage = z.infer<typeof EvaluationStage>;

export const InstanceResult = z.object({
  id: z.string(),
  split: Split,
  /** Normalised by the grader to [0, 1]; higher is better. */
  score: z.number(),
  /** The task's raw metric (e.g. sum of radii), null when the instance failed. */
  value: z.number().nullable(),
  /** The grader's words (capped). */
  feedback: z.string(),
  /** Why it failed (timeout, crash, protocol, invalid output); null when it did not. */
  error: z.string().nullable(),
  durationMs: z.number(),
  /** Scores of each repeat when the task repeats stochastic instances. */
  repeats: z.array(z.number()).optional(),
  /** Something the report can draw (e.g. the circles of a packing); capped. */
  artifact: WireJson.optional(),
});
export type InstanceResult = z.infer<typeof InstanceResult>;

export const StageResult = z.object({
  stage: EvaluationStage,
  instances: z.array(InstanceResult),
  /** Mean instance score of this stage. */
  score: z.number(),
  durationMs: z.number(),
  /** Capped stderr of the stage's containers. */
  stderr: z.string(),
});
export type StageResult = z.infer<typeof StageResult>;

export const EvaluationResult = z.object({
  stages: z.array(StageResult),
  /** Mean over every visible instance evaluated (stage1 alone when stage 2 did not run). */
  visibleScore: z.number().nullable(),
  heldoutScore: z.number().nullable(),
  passedStage1: z.boolean(),
  /** Time the candidate spent answering, summed over calls (the task's own compute). */
  computeMs: z.number(),
  durationMs: z.number(),
  /** Visible instances evaluated, of those asked for (the split, or a listed subset); absent in records before racing. */
  coverage: z.object({ evaluated: z.number().int().nonnegative(), of: z.number().int().nonnegative() }).optional(),
  /** Present when the visible split was raced: why the race ended, against what. */
  race: RaceRecord.optional(),
  /** Present when a valid child's held-out split was not scored: why (the run's held-out rule). */
  heldoutSkipped: z.string().max(300).optional(),
  /**
   * Present when the visible split's results are those of the meta agent's ctx.evaluate call
   * with this number, on the same tree, seed and limits, in race order: the race was read off
   * them, with no container of its own (evaluate-candidate.ts, raceOver).
   */
  visibleFromDraft: z.number().int().positive().optional(),
});
export type EvaluationResult = z.infer<typeof EvaluationResult>;

/** What says whether an evaluation covered the visible split whole (visibleComplete): all a listing reads of it. */
export const VisibleCoverage = EvaluationResult.pick({ passedStage1: true, coverage: true });
export type VisibleCoverage = z.infer<typeof VisibleCoverage>;

/**
 * A stage in the words a view prints beside the headline scores: "visible" there is the mean
 * over every visible instance (stage 1 and stage 2), so the stage of the rest of the visible
 * instances is never labelled "visible" alone.
 */
export const STAGE_LABELS: Record<EvaluationStage, string> = {
  stage1: "stage 1",
  visible: "stage 2",
  heldout: "held-out",
};

/**
 * Whether the evaluation covered every visible instance asked for, so its visible score may
 * be compared with others as a whole. Records from before `coverage` stopped short exactly
 * when stage 1 was below the task's threshold (a task whose visible split is stage 1 alone
 * then reads as partial: those records do not say the split's size).
 */
export function visibleComplete(evaluation: VisibleCoverage): boolean {
  return evaluation.coverage === undefined ? evaluation.passedStage1 : evaluation.coverage.evaluated >= evaluation.coverage.of;
}
