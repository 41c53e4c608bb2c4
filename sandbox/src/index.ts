/**
 * The sandbox: the container runtime, and the only code that imports dockerode or tar-fs.
 * Its vocabulary (errors, JSON, the runner protocol, how a container call ends) is the
 * kernel's (harness/src/kernel). Rooms: port/, docker/, connect/, fleet/, sessions/, extract/.
 */
export * from "./port/index.js";
export * from "./connect/index.js";
export * from "./sessions/index.js";
export { DEFAULT_HEALTH, type HealthSettings } from "./fleet/index.js";
export { containerCreateOptions, dockerLabels, hostPlatform, newSessionId, platformName, runtimeBaseImage, SUGGESTED_BASE_IMAGE, workspaceMount } from "./docker/index.js";
export { extractSafely, planExtraction } from "./extract/index.js";
export { TESTER_ENTRY } from "../runner/protocol.js";
export { STOPPING_KINDS, type CallFailureKind, type ExecCall, type ExecExport, type ExecRequest } from "../runner/exec-protocol.js";
export { decodeValue, encodeValue, VALUE_TAG } from "../runner/value-wire.js";
export { seededRandom } from "../runner/seeded-random.js";
