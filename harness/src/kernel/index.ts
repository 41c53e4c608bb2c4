/**
 * The kernel: the vocabulary every layer speaks, the sandbox included. The base error and
 * its codes, plain JSON, the runtimes, how a container call ends, the LLM wire and the
 * agent contract (the ambient module `@evolve/contract` in evolve-contract.d.ts). It imports
 * nothing of the project; everything else may import it.
 */
export { CommonErrorCode, ErrorCode, EvolveError, HarnessErrorCode, SandboxErrorCode, assertNever } from "./errors.js";
export { WireJson, toWire, type JsonCompatible } from "./wire-json.js";
export { Runtime } from "./runtime.js";
export { ChoiceOutcome, ModelProbe } from "./model-probe.js";
export { parseJson, readJson, zodIssueLines, zodIssues, type JsonRead } from "./read-json.js";
export { ContainerEndKind, type ContainerEnd } from "./container-end.js";
export { MODULE_EXTENSION, PACKAGE_ROOT } from "./package-root.js";
export { FILES_PER_TURN, turnAfter } from "./file-turns.js";
export {
  LlmErrorCode,
  MAX_SCHEMA_DEPTH,
  MAX_TOOLS,
  TOOL_NAME,
  WireLlmAnswer,
  WireLlmFinishReason,
  WireLlmMessage,
  WireLlmRequest,
  WireLlmRequestFields,
  WireLlmResponse,
  WireLlmTool,
  WireLlmToolCall,
  WireLlmToolChoice,
  finishReasonOf,
  isShallowJsonObject,
  llmRefusal,
} from "./llm-wire.js";
export {
  EvaluateCallMessage,
  LlmCallMessage,
  LoadErrorMessage,
  ReadyMessage,
  ResultMessage,
  RunnerMessage,
  ToolMessage,
  WorkspaceTree,
  type CallMessage,
  type EvaluateResultMessage,
  type FilesMessage,
  type HostMessage,
  type InitMessage,
  type LlmResultMessage,
  type RunnerMode,
  type ShutdownMessage,
} from "./runner-protocol.js";
