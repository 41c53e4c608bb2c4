/** The Docker adapter of the port: one engine, its hardened containers, the offline runtime image, the warm pool. */
export { DockerEngine, newSessionId, type DockerEngineSettings } from "./docker-engine.js";
export { containerCreateOptions, dockerLabels, workspaceMount } from "./container-spec.js";
export { RuntimeImageSource } from "./runtime-image.js";
export { MAX_WARM_POOL } from "./warm-pool.js";
