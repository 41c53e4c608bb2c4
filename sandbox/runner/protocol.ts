/**
 * The runner's side of the stdio protocol: where things are inside the container and the
 * runner's own bounds. The messages themselves are defined once, in
 * harness/src/kernel/runner-protocol.ts; only their types come in here, erased when the
 * runner is transpiled into the image (which ships no zod).
 *
 * Layout inside every container (a per-container volume mounted at WORK_DIR):
 *   /work/agent  the agent's TypeScript tree (self-modification only; the meta agent edits it)
 *   /work/build  the emitted JS of the agent that is being run (its package.json says "module")
 */

export type * from "../../harness/src/kernel/index.js";
export type { WireJson } from "../../harness/src/kernel/index.js";

export const WORK_DIR = "/work";
export const AGENT_DIR = "/work/agent";
export const BUILD_DIR = "/work/build";
/** Entry modules inside BUILD_DIR, emitted from task/index.ts, meta/index.ts and (optional) tester/index.ts. */
export const TASK_ENTRY = "task/index.js";
export const META_ENTRY = "meta/index.js";
export const TESTER_ENTRY = "tester/index.js";

/**
 * The largest LLM request (as JSON) the runner sends on: it refuses a larger one itself, so
 * one oversized request is a refusal, not a step towards the stdout cap that ends the
 * container (8 MiB for all its output together). The broker's caps on a request are lower.
 */
export const MAX_LLM_REQUEST_BYTES = 1024 * 1024;

/** What a shutdown's `flush` token may look like; the runner writes no other. */
export const FLUSH_TOKEN = /^[A-Za-z0-9-]{16,80}$/;
