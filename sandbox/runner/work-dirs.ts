/**
 * Where this runner's workspace is. In the image it is protocol.ts's WORK_DIR, AGENT_DIR and
 * BUILD_DIR (/work...), always: the container's environment is the harness's fixed list
 * (container-spec.ts), which never names EVOLVE_RUNNER_WORK_DIR. Only the test engine
 * (sandbox/src/in-memory-engine.ts), which runs this runner as a plain host process with a
 * temp folder for /work, sets it. The host always speaks of /work; this is the runner's own view.
 */
import { join } from "node:path";
import { AGENT_DIR as IMAGE_AGENT_DIR, BUILD_DIR as IMAGE_BUILD_DIR, WORK_DIR as IMAGE_WORK_DIR } from "./protocol.js";

/** Read once, before any agent code loads, so nothing an agent does to process.env moves it. */
const override = process.env["EVOLVE_RUNNER_WORK_DIR"];

export const WORK_DIR = override ?? IMAGE_WORK_DIR;
export const AGENT_DIR = override === undefined ? IMAGE_AGENT_DIR : join(override, "agent");
export const BUILD_DIR = override === undefined ? IMAGE_BUILD_DIR : join(override, "build");
