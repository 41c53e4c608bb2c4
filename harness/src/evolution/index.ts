/**
 * The evolution loop: select → self-modify → validate → evaluate → record, W children at
 * once, resumable from the archive. The per-phase steps are exported for `evolve replay`.
 */
export { startRun, harnessVersion } from "./start-run.js";
export type { RunIo } from "./start-run.js";
export { resumeRun } from "./resume.js";
export {
  BUILTIN_TASKS_DIR,
  DEFAULT_AGENT_DIR,
  DEFAULT_EVALUATIONS,
  DEFAULT_ARCHIVE_ROOT,
  DEFAULT_GENERATIONS,
  DEFAULT_IMPROVE_TIMEOUT_MS,
  DEFAULT_SEED,
  DEFAULT_TASK,
  DEFAULT_WARM_POOL,
  generationSeed,
  newRunId,
  RunOptions,
  taskDirFor,
} from "./run-options.js";
export { checkAgentTree, checkTask, preflight } from "./preflight.js";
export { checkLimitsOf, runContextOf, type RunContextParts } from "./run-context-of.js";
export { recordedTaskDir } from "./recorded-task.js";
export { createBuildCache } from "./build-cache.js";
export type { BuildCache } from "./build-cache.js";
export { checkInterrupted, StepInterrupted } from "./run-context.js";
export type { LlmSettings, RunContext, SandboxSettings } from "./run-context.js";
export { buildImproveRequest } from "./improve-request.js";
export type { RequestInputs } from "./improve-request.js";
export { countingEngine } from "./counting-engine.js";
export { NO_SOLVE_LLM, openSolveLlm, solveSpentOf, type SolveLlm } from "./solve-llm.js";
export { createDraftEvaluator, evaluateSlackMs, MIN_WINDOW_MS } from "./draft-evaluator.js";
export type { DraftEvaluator, DraftEvaluatorInput } from "./draft-evaluator.js";
export { DraftRequest, MAX_LISTED_IDS, planDraftRequest } from "./draft-request.js";
export type { DraftPlan } from "./draft-request.js";
export { selfModifyStep } from "./self-modify-step.js";
export type { SelfModifyInput, SelfModifyResult } from "./self-modify-step.js";
export { validateStep } from "./validate-step.js";
export type { ValidateStepInput, ValidateStepResult } from "./validate-step.js";
export { evaluateStep, scoresOf } from "./evaluate-step.js";
export type { EvaluateStepInput } from "./evaluate-step.js";
export { buildRecord, recordGeneration } from "./record-generation.js";
export type { RecordInputs } from "./record-generation.js";
export { runChild } from "./generation-step.js";
export type { ChildPlan } from "./generation-step.js";
export { runSeedGeneration } from "./seed-generation.js";
export { runLoop } from "./run-loop.js";
export type { LoopEnd, LoopOptions, LoopState } from "./run-loop.js";
export { executeRun } from "./run-session.js";
export type { SessionInputs } from "./run-session.js";
export { Progress, describeRecord, formatDuration, formatEngineLoad } from "./progress.js";
export type { ProgressSink } from "./progress.js";
export { formatSummary, summarise } from "./summary.js";
export type { RunSummary } from "./summary.js";
export { writeRunReport } from "./report-hook.js";
