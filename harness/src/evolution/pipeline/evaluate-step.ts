/**
 * Phase 5 of a generation: the emitted JS that passed validation runs in fresh containers
 * on the run's fixed evaluation seed: stage 1, the rest of the visible split above the
 * threshold (or the visible split raced against the parent), then the held-out split for
 * the record by the run's held-out rule (never shown to any agent). A candidate whose import
 * gate was deferred (candidate.ts) loads whole in its first visible session first.
 */
import { failure, visibleComplete, type EvaluationResult, type ValidationFailure } from "../../results/index.js";
import { evaluateCandidate, evaluateImported, type EvaluateOptions, type ImportGate } from "../../evaluation/index.js";
import type { PhaseTimings, ScoreSummary } from "../../archive/index.js";
import { exportProblem, importFailure } from "../../validation/index.js";
import { NO_SOLVE_LLM, checkInterrupted, containerLabels, type RunContext, type SolveLlm } from "../context/index.js";
import { STAGED_EVALUATION, type EvaluationPlan } from "./evaluation-plan.js";

export interface EvaluateStepInput {
  ctx: Pick<RunContext, "sandbox" | "task" | "evaluationSeed" | "runId">;
  generationId: string;
  buildDir: string;
  /** How much to evaluate (evaluation-plan.ts); staged, held-out always, when absent. */
  plan?: EvaluationPlan;
  /** The task agent's model (a task that needs one); absent: none. */
  solveLlm?: SolveLlm;
  /** A ctx.evaluate draft's whole run of this tree's visible split, for a raced plan to be read off (EvaluateOptions.visibleDone). */
  visibleDone?: EvaluateOptions["visibleDone"];
}

/** The evaluation of a child or the seed by its plan: staged or raced visible split, then held-out by the run's rule. */
function childEvaluation(input: EvaluateStepInput): EvaluateOptions {
  const { sandbox } = input.ctx;
  const plan = input.plan ?? STAGED_EVALUATION;
  // Task agents run without an LLM during evaluation (scores stay reproducible, the LLM
  // budget goes to self-modification), unless the task needs one: then through the
  // generation's solve-time broker, on its own budget (context/solve-llm.ts).
  const solve = (input.solveLlm ?? NO_SOLVE_LLM).evaluation;
  return {
    engine: sandbox.engine,
    image: sandbox.image,
    task: input.ctx.task,
    buildDir: input.buildDir,
    labels: containerLabels(input.ctx, input.generationId),
    runtime: sandbox.runtime,
    seed: input.ctx.evaluationSeed,
    visible: plan.visible,
    heldout: true,
    ...(plan.heldoutUnless === null ? {} : { heldoutUnless: plan.heldoutUnless }),
    ...(plan.race === null ? {} : { race: plan.race }),
    // Read off only by a race (evaluate-candidate.ts); a staged plan evaluates afresh.
    ...(input.visibleDone === undefined ? {} : { visibleDone: input.visibleDone }),
    llmAvailable: solve.llmAvailable,
    ...(solve.onLlm === undefined ? {} : { onLlm: solve.onLlm }),
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

/**
 * The per-split scores of an evaluation (all null when there was none). `visible` is null
 * unless the evaluation covered the whole visible split: a partial score is never recorded
 * where whole ones are compared (the partial mean stays in the evaluation's stages).
 */
export function scoresOf(evaluation: EvaluationResult | null): ScoreSummary {
  const stage1 = evaluation?.stages.find((s) => s.stage === "stage1")?.score ?? null;
  const visible = evaluation === null || !visibleComplete(evaluation) ? null : evaluation.visibleScore;
  return { visible, heldout: evaluation?.heldoutScore ?? null, stage1 };
}
