/**
 * The evolution loop: select → self-modify → extract → validate → evaluate → record, W
 * children at once, resumable from the archive. Rooms (README.md): run/, loop/, steps/,
 * pipeline/, arena-rounds/, view/, context/. The steps are exported for `evolve replay`.
 */
// run/: a run's life
export {
  BUILTIN_TASKS_DIR,
  DEFAULT_AGENT_DIR,
  DEFAULT_ARCHIVE_ROOT,
  DEFAULT_EVALUATIONS,
  DEFAULT_GENERATIONS,
  DEFAULT_IMPROVE_TIMEOUT_MS,
  DEFAULT_SEED,
  DEFAULT_TASK,
  DEFAULT_WARM_POOL,
  RunOptions,
  checkAgentTree,
  checkTask,
  executeRun,
  harnessVersion,
  newRunId,
  preflight,
  recordedTaskDir,
  resumeRun,
  startRun,
  taskDirFor,
  type RunIo,
  type SessionInputs,
} from "./run/index.js";
// context/: what every step shares
export {
  StepInterrupted,
  checkInterrupted,
  checkLimitsOf,
  countingEngine,
  createBuildCache,
  generationSeed,
  runContextOf,
  type BuildCache,
  type LlmSettings,
  type LoopEnd,
  type RunContext,
  type RunContextParts,
  type SandboxSettings,
} from "./context/index.js";
// pipeline/ and steps/: one candidate, one generation
export {
  DraftRequest,
  MAX_LISTED_IDS,
  MIN_WINDOW_MS,
  buildImproveRequest,
  childRequest,
  createDraftEvaluator,
  evaluateSlackMs,
  evaluateStep,
  importGateOf,
  planDraftRequest,
  scoresOf,
  selfModifyStep,
  validateStep,
  type DraftEvaluator,
  type DraftEvaluatorInput,
  type DraftPlan,
  type EvaluateStepInput,
  type RequestInputs,
  type SelfModifyInput,
  type SelfModifyResult,
  type ValidateStepInput,
  type ValidateStepResult,
} from "./pipeline/index.js";
export { buildRecord, recordGeneration, runChild, runSeedGeneration, type ChildPlan, type RecordInputs } from "./steps/index.js";
// loop/ and view/
export { runLoop, type LoopOptions, type LoopState } from "./loop/index.js";
export { Progress, describeRecord, formatDuration, formatEngineLoad, formatSummary, summarise, writeRunReport, type ProgressSink, type RunSummary } from "./view/index.js";
