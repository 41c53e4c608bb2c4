/** What every step of a run shares: the run context (built from run.json in one place), builds, the engine ledger, seeds. */
export { checkKey, createBuildCache, type BuildCache } from "./build-cache.js";
export { checkLimitsOf, runContextOf, type RunContextParts } from "./context-of-record.js";
export { countingEngine } from "./counting-engine.js";
export { StepInterrupted, checkInterrupted, containerLabels, generationBroker, type CandidateContext, type LlmSettings, type LoopEnd, type RunContext, type SandboxSettings, type SolveLlmSettings } from "./run-context.js";
export { generationSeed } from "./generation-seed.js";
export { NO_SOLVE_LLM, openSolveLlm, solveSpentOf, type SolveLlm } from "./solve-llm.js";
