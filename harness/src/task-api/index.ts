/**
 * The task API: what a grader imports as `evolve/task`, from any folder. `evolve` resolves
 * this specifier (and `zod`) to its own copies when it loads a grader, so a task folder needs
 * no package.json or node_modules. Everything here is documented in the README's "Your own task".
 */
export { z } from "zod";
export type { Json } from "@evolve/contract";
export {
  GradeOutcome,
  defineGrader,
  defineOracle,
  describeFailure,
  jsonBytes,
  type GradeContext,
  type Grader,
  type Judgement,
  type Oracle,
  type SolveCall,
  type SolveReply,
  type TaskInstance,
  recordEpisode,
  type EpisodeRecorder,
  type CodeTest,
  type CodeTestReport,
  type CodeTestRequest,
  type RunTests,
  type TestVerdict,
} from "../evaluation/index.js";
export { codeTestOutcome } from "./code-test-outcome.js";
export { noAnswer, parseAnswer, quote, zeroScore, type AnswerCheck } from "./answers.js";
export { seededRandom } from "../../../sandbox/src/index.js";
