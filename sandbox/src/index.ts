/** The sandbox: the only code that imports dockerode or tar-fs. */
export { connectEngines } from "./connect-engines.js";
export type { ConnectOptions, EngineConnector, EngineOptions } from "./connect-engines.js";
export { newSessionId } from "./docker-engine.js";
export { DEFAULT_HEALTH } from "./engine-fleet.js";
export type { HealthSettings } from "./engine-fleet.js";
export { engineSelection, EngineEntry, EngineSelection, EnginesFile, LOCAL_ENGINE } from "./engine-selection.js";
export type * from "./sandbox-port.js";
export { containerCreateOptions, dockerLabels, workspaceVolumeOptions } from "./container-spec.js";
export { DEFAULT_EXTRACT_CAPS, DEFAULT_LIMITS, DEFAULT_WORKSPACE_BYTES, SANDBOX_UID } from "./limits.js";
export { extractSafely, planExtraction } from "./safe-extract.js";
export { EvolveError, assertNever } from "./errors.js";
export type { ErrorCode } from "./errors.js";
export type * from "./types.js";
export { checkImports, openSolveSession, runImprove } from "./runner-session.js";
export type { ImportCheck, ImproveInit, ImproveOptions, ImproveOutcome, SolveReply, SolveSession, SolveSessionOptions } from "./runner-session.js";
export { runPropose } from "./propose-session.js";
export { execCommand, runCodeTests } from "./exec-session.js";
export type { CallOutcome, CodeTestOptions, CodeTestOutcome, CodeTestVerdict } from "./exec-session.js";
export { STOPPING_KINDS } from "../runner/exec-protocol.js";
export type { CallFailureKind, ExecCall, ExecExport, ExecRequest } from "../runner/exec-protocol.js";
export { decodeValue, encodeValue, VALUE_TAG } from "../runner/value-wire.js";
export type { ProposeAnswer, ProposeFailureKind, ProposeOptions } from "./propose-session.js";
export type { AgentContainerOptions, LiveWorkspace } from "./runner-channel.js";
export { describeEnd } from "./runner-channel.js";
export * from "../runner/protocol.js";
export {
  WireLlmRequest,
  WireLlmRequestFields,
  WireLlmMessage,
  WireLlmTool,
  WireLlmToolCall,
  WireLlmToolChoice,
  WireLlmResponse,
  WireLlmFinishReason,
  WireLlmAnswer,
  LlmErrorCode,
  finishReasonOf,
  llmRefusal,
  isShallowJsonObject,
  TOOL_NAME,
  MAX_TOOLS,
  MAX_SCHEMA_DEPTH,
} from "./llm-wire.js";
export { seededRandom } from "../runner/seeded-random.js";
export { WireJson } from "./wire-json.js";
