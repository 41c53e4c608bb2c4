/** The sandbox port: what the harness asks of wherever containers run, the values that cross it, and their defaults. */
export type * from "./sandbox-port.js";
export { DEFAULT_EXTRACT_CAPS, DEFAULT_LIMITS, DEFAULT_WORKSPACE_BYTES, LABEL_PREFIX, SANDBOX_UID } from "./limits.js";
