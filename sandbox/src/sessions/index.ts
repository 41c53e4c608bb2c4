/** What the harness asks of an agent, each in a fresh container over the runner protocol: load it, improve, solve, propose; and a candidate's code under a task's tests (exec-session.ts). */
export { checkImports, type ImportCheck } from "./import-check.js";
export { runImprove, type ImproveEnd, type ImproveInit, type ImproveOptions, type ImproveOutcome } from "./improve-session.js";
export { openSolveSession, type SessionImport, type SolveReply, type SolveSession, type SolveSessionOptions } from "./solve-session.js";
export { runPropose, type ProposeAnswer, type ProposeEnd, type ProposeOptions } from "./propose-session.js";
export { endOf, type AgentContainerOptions, type EvaluateService, type LiveWorkspace } from "./runner-channel.js";
export { execCommand, runCodeTests, type CallOutcome, type CodeTestOptions, type CodeTestOutcome, type CodeTestVerdict } from "./exec-session.js";
