/**
 * The sandbox: the container runtime, and the only code that imports dockerode or tar-fs.
 * Its vocabulary (errors, JSON, the runner protocol, how a container call ends) is the
 * kernel's (harness/src/kernel). Rooms: port/, docker/, connect/, fleet/, sessions/, extract/.
 */
export * from "./port/index.js";
export * from "./connect/index.js";
export * from "./sessions/index.js";
export { DEFAULT_HEALTH, type HealthSettings } from "./fleet/index.js";
export { containerCreateOptions, dockerLabels, newSessionId, workspaceMount } from "./docker/index.js";
export { extractSafely, planExtraction } from "./extract/index.js";
export { TESTER_ENTRY } from "../runner/protocol.js";
export { seededRandom } from "../runner/seeded-random.js";
