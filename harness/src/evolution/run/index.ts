/** A run's life: settings, preflight, start, resume, one process's session. */
export { checkAgentTree, checkTask, preflight } from "./preflight.js";
export { recordedTaskDir } from "./recorded-task.js";
export { resumeRun } from "./resume-run.js";
export { executeRun, type SessionInputs } from "./run-session.js";
export { BUILTIN_TASKS_DIR, DEFAULT_AGENT_DIR, DEFAULT_ARCHIVE_ROOT, DEFAULT_ATTEMPTS, DEFAULT_EVALUATIONS, DEFAULT_GENERATIONS, DEFAULT_IMPROVE_TIMEOUT_MS, DEFAULT_SEED, DEFAULT_TASK, DEFAULT_WARM_POOL, HELDOUT_TOP, RunOptions, economyFor, newRunId, taskDirFor } from "./run-settings.js";
export { harnessVersion, startRun, type RunIo } from "./start-run.js";
