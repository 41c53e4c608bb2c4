/**
 * The one builder of archive records for tests and benchmarks. Every record it returns has
 * been parsed by the real zod schema, so a fixture cannot drift from what the harness writes
 * and reads: when a schema changes, this file fails first and is the only one to update.
 * Scores are derived from the instances as the evaluator derives them (means per stage and
 * per split), so a builder record is also a consistent one.
 */
import {
  GENERATION_SCHEMA_VERSION,
  GenerationRecord,
  RUN_SCHEMA_VERSION,
  RunRecord,
  type GenerationStatus,
  type RunConfig,
} from "../../harness/src/archive/index.js";
import {
  type CodeOf,
  type EvaluationResult,
  type EvaluationStage,
  failure,
  type FailureStage,
  type InstanceResult,
  type StageResult,
} from "../../harness/src/results/index.js";

/** The time every builder record is stamped with unless told otherwise. */
export const AT = "2025-01-02T03:04:05.678Z";

/** The budgets and limits `evolve run` writes with its defaults (no budget: null). */
export const LIMITS: RunConfig["limits"] = {
  budgetTokens: null,
  budgetUsd: null,
  generationTokens: null,
  improveTimeoutMs: 180_000,
  importTimeoutMs: 10_000,
  checkMemoryMb: 1024,
  checkTimeoutMs: 30_000,
  evaluations: 3,
};

export type RunOverrides = Partial<Omit<RunRecord, "config">> & { readonly config?: Partial<RunConfig> };

/** A run.json record: a finished-looking offline run of circle-packing unless overridden (config merges key by key). */
export function runRecord(overrides: RunOverrides = {}): RunRecord {
  const { config, ...rest } = overrides;
  return RunRecord.parse({
    schemaVersion: RUN_SCHEMA_VERSION,
    id: "run-test",
    createdAt: AT,
    updatedAt: AT,
    config: {
      task: { name: "circle-packing", dir: "/tasks/circle-packing" },
      agentDir: "/seed-agent",
      generations: 8,
      workers: 2,
      selection: "score_child_prop",
      seed: 7,
      model: null,
      runtime: "runc",
      limits: LIMITS,
      ...config,
    },
    harnessVersion: "0.1.0",
    status: "running",
    rng: null,
    ...rest,
  });
}

/** One graded instance; visible, scored 1 and without error unless overridden. */
export function instanceResult(overrides: Partial<InstanceResult> & { readonly id: string }): InstanceResult {
  return { split: "visible", score: 1, value: 1, feedback: "", error: null, durationMs: 10, ...overrides };
}

/** A stage whose score is the mean of its instances' (0 for none), as the evaluator computes it. */
export function stageResult(stage: EvaluationStage, instances: readonly InstanceResult[], overrides: Partial<Omit<StageResult, "stage" | "instances" | "score">> = {}): StageResult {
  return { stage, instances: [...instances], score: mean(instances.map((i) => i.score)) ?? 0, durationMs: 100, stderr: "", ...overrides };
}

/** An evaluation over these stages: visible score over stage1 + visible instances, held-out from the heldout stage. */
export function evaluationResult(stages: readonly StageResult[], overrides: Partial<Omit<EvaluationResult, "stages">> = {}): EvaluationResult {
  const heldout = stages.find((s) => s.stage === "heldout");
  return {
    stages: [...stages],
    visibleScore: mean(stages.filter((s) => s.stage !== "heldout").flatMap((s) => s.instances.map((i) => i.score))),
    heldoutScore: heldout === undefined ? null : heldout.score,
    passedStage1: true,
    computeMs: stages.reduce((sum, s) => sum + s.durationMs, 0),
    durationMs: stages.reduce((sum, s) => sum + s.durationMs, 0) + 10,
    ...overrides,
  };
}

/** The status, evaluation and scores of a valid generation evaluated as given (spread into generationRecord). */
export function evaluated(evaluation: EvaluationResult): Pick<GenerationRecord, "status" | "evaluation" | "scores"> {
  const stage1 = evaluation.stages.find((s) => s.stage === "stage1");
  return {
    status: { kind: "valid" },
    evaluation,
    scores: { visible: evaluation.visibleScore, heldout: evaluation.heldoutScore, stage1: stage1 === undefined ? null : stage1.score },
  };
}

/** The scores of a valid generation whose evaluation is not kept (for code that reads scores only). */
export function scored(visible: number | null, heldout: number | null = null): Pick<GenerationRecord, "status" | "evaluation" | "scores"> {
  return { status: { kind: "valid" }, evaluation: null, scores: { visible, heldout, stage1: visible } };
}

/** The status, evaluation and scores of a generation that stopped at `stage` (spread into generationRecord). */
export function invalidAt<S extends FailureStage>(
  stage: S,
  code: CodeOf<S>,
  message = `failed at ${stage}`,
  where: { readonly file: string | null; readonly line: number | null } = { file: null, line: null },
): Pick<GenerationRecord, "status" | "evaluation" | "scores"> {
  const status: GenerationStatus = { kind: "invalid", ...failure(stage, code, message, where) };
  return { status, evaluation: null, scores: { visible: null, heldout: null, stage1: null } };
}

/** The default evaluation: two visible instances in stage 1, one of them a timeout with repeats. */
const DEFAULT_EVALUATION = evaluationResult([
  stageResult("stage1", [
    instanceResult({ id: "i1", score: 0.5, value: 1.25, feedback: "ok", durationMs: 12 }),
    instanceResult({ id: "i2", score: 0, value: null, error: "timeout", durationMs: 1000, repeats: [0, 0] }),
  ]),
]);

/** A generation.json record: the seed (g0000), valid and evaluated, unless overridden. */
export function generationRecord(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return GenerationRecord.parse({
    schemaVersion: GENERATION_SCHEMA_VERSION,
    id: "g0000",
    parent: null,
    depth: 0,
    ...evaluated(DEFAULT_EVALUATION),
    summary: "tuned the step size",
    changedFiles: [{ path: "task/index.ts", change: "modified", additions: 2, deletions: 1 }],
    tokens: { prompt: 100, completion: 20 },
    costUsd: null,
    timings: { selfModify: 1500, compile: 300, evaluate: 1200, total: 3100 },
    model: null,
    snapshotHash: null,
    seed: 7,
    createdAt: AT,
    ...overrides,
  });
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}
