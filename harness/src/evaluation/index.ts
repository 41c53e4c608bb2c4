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
export { repeatSeed } from "./run-stage.js";
