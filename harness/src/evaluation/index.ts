/** Public surface of the evaluation: task loading, the grader interface, staged evaluation. */
export { TaskManifest } from "./task-manifest.js";
export { loadTask, type Task } from "./load-task.js";
export { smokeTestGrader } from "./smoke-test.js";
export { GRADER_FILE, checkGraderShape } from "./grader-module.js";
export { TASK_API_SPECIFIER, importTaskModule } from "./import-task-module.js";
export {
  GradeOutcome,
  defineGrader,
  describeFailure,
  jsonBytes,
  type GradeContext,
  type Grader,
  type SolveCall,
  type SolveReply,
  type TaskInstance,
} from "./grader.js";
export { defineOracle, ORACLE_LIMITS, type Judgement, type Oracle } from "./oracle.js";
export { checkOracleShape, type OracleShape } from "./oracle-shape.js";
export { evaluateCandidate, type EvaluateOptions, type VisiblePolicy } from "./evaluate-candidate.js";
export { evaluateImported, type ImportedEvaluation, type ImportGate } from "./evaluate-imported.js";
export { repeatSeed, type StageRun } from "./run-stage.js";
export { recordEpisode, type EpisodeRecorder } from "./episode-recorder.js";
export { raceCheckpoints, raceUpperBound, seededOrder, type RaceTally } from "./race-bound.js";
export { raceOrder, type RaceOptions } from "./race-visible.js";
export { CodeTest, CodeTestRequest, createCodeTester, MAX_SOURCE_BYTES, NO_CODE_TESTS, showValue } from "./code-tests.js";
export type { CodeTestEnv, CodeTestReport, RunTests, TestVerdict } from "./code-tests.js";
export { Comparison, valuesMatch } from "./compare-values.js";
