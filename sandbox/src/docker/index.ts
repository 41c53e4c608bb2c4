/** The Docker adapter of the port: one engine, its hardened containers, the offline runtime image, the warm pool. */
export { DockerEngine, newSessionId, type DockerEngineSettings } from "./docker-engine.js";
export { containerCreateOptions, dockerLabels, workspaceMount } from "./container-spec.js";
export { collectImageInputs, IMAGE_NODE, RUNNER_MAIN, runnerCommand, RuntimeImageSource, TOOLCHAIN_ROOTS, transpileRunner } from "./runtime-image.js";
export { addEsmEntries, ESM_ENTRY_FILE } from "./toolchain-esm-entry.js";
export { attachFrame, flushedOutcome, OutputDemux } from "./output-demux.js";
export { PendingRemovals } from "./pending-removals.js";
export { hostPlatform, platformName, runtimeBaseImage, SUGGESTED_BASE_IMAGE } from "./host-platform.js";
export { MAX_WARM_POOL } from "./warm-pool.js";
