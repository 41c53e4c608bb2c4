/**
 * Phase 5 of a generation: the emitted JS that passed validation runs in fresh containers
 * on the run's fixed evaluation seed: stage 1, the rest of the visible split above the
 * threshold, then the held-out split for the record (never shown to any agent). A candidate
 * whose import gate was deferred (candidate.ts) loads whole in its first session first.
 */
import type { EvaluationResult, ValidationFailure } from "../../results/index.js";
import { evaluateCandidate, evaluateImported, type EvaluateOptions, type ImportGate } from "../../evaluation/index.js";
import type { PhaseTimings, ScoreSummary } from "../../archive/index.js";
import { exportProblem, importFailure } from "../../validation/index.js";
import { failure } from "../../results/index.js";
import { checkInterrupted, containerLabels, type RunContext } from "../context/index.js";

export interface EvaluateStepInput {
  ctx: Pick<RunContext, "sandbox" | "task" | "evaluationSeed" | "runId">;
  generationId: string;
  buildDir: string;
}

function childEvaluation(input: EvaluateStepInput): EvaluateOptions {
  const { sandbox } = input.ctx;
  // Task agents run without an LLM during evaluation: scores stay reproducible and the
  // LLM budget goes to self-modification.
  return {
    engine: sandbox.engine,
    image: sandbox.image,
    task: input.ctx.task,
    buildDir: input.buildDir,
    labels: containerLabels(input.ctx, input.generationId),
    runtime: sandbox.runtime,
    seed: input.ctx.evaluationSeed,
    visible: "staged",
    heldout: true,
    llmAvailable: false,
  };
}

/** Scores one valid candidate; agent failures are zero scores inside the result. */
export async function evaluateStep(input: EvaluateStepInput): Promise<EvaluationResult> {
  return evaluateCandidate(childEvaluation(input));
}

/** The import gate of `buildDir` as validation judges it, for a first evaluation session to apply. */
export function importGateOf(sandbox: Pick<RunContext["sandbox"], "importTimeoutMs">, buildDir: string): ImportGate {
  const timeoutMs = sandbox.importTimeoutMs;
  return {
    timeoutMs,
    accepts: (exports) => exportProblem(exports, buildDir) === null,
    failure: (check) => importFailure(check, buildDir, { timeoutMs }) ?? failure("import", "protocol_violation", "the load was refused without a reason"),
  };
}

/** What evaluating a candidate gave: its evaluation, or (deferred import) the import failure. */
export type EvaluateTimed = { evaluation: EvaluationResult; failure: null } | { evaluation: null; failure: ValidationFailure };

/**
 * `evaluateStep`, its time in `timings.evaluate` (and the load's in `timings.import` when the
 * gate was deferred to the first session); a Ctrl-C meanwhile stops the step.
 */
export async function evaluateTimed(input: EvaluateStepInput & { ctx: { signal: AbortSignal }; importDeferred?: boolean }, timings: PhaseTimings): Promise<EvaluateTimed> {
  const started = performance.now();
  let result: EvaluateTimed;
  let importMs = 0;
  if (input.importDeferred === true) {
    const imported = await evaluateImported(childEvaluation(input), importGateOf(input.ctx.sandbox, input.buildDir));
    importMs = imported.importMs;
    timings.import = importMs;
    result = imported.failure === null ? { evaluation: imported.evaluation, failure: null } : { evaluation: null, failure: imported.failure };
  } else {
    result = { evaluation: await evaluateStep(input), failure: null };
  }
  timings.evaluate = performance.now() - started - importMs;
  checkInterrupted(input.ctx.signal);
  return result;
}

/** The per-split scores of an evaluation (all null when there was none). */
export function scoresOf(evaluation: EvaluationResult | null): ScoreSummary {
  const stage1 = evaluation?.stages.find((s) => s.stage === "stage1")?.score ?? null;
  return { visible: evaluation?.visibleScore ?? null, heldout: evaluation?.heldoutScore ?? null, stage1 };
}
