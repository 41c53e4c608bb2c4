/** Defaults for every container and every extraction; callers override per field. */
import type { ExtractCaps, SandboxLimits } from "./sandbox-port.js";

export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 512 * 1024 * 1024,
  nanoCpus: 1_000_000_000,
  pidsLimit: 64,
  tmpfsBytes: 64 * 1024 * 1024,
  logBytes: 1024 * 1024,
};

/** The workspace volume is a size-capped tmpfs: an agent cannot fill the host's disk. */
export const DEFAULT_WORKSPACE_BYTES = 128 * 1024 * 1024;

export const DEFAULT_EXTRACT_CAPS: ExtractCaps = {
  maxEntries: 2_000,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 16 * 1024 * 1024,
};

/** The non-root user every container runs as ("nobody" on Debian). */
export const SANDBOX_UID = 65534;

export const LABEL_PREFIX = "dev.evolve";
