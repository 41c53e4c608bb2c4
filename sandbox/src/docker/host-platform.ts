/**
 * Which runtime image this host can make. The default image is built FROM scratch out of the
 * host's own `node` binary and the libraries `ldd` says it links (runtime-image.ts): that
 * works only where the host's node is a Linux program. On macOS or Windows (Docker Desktop
 * runs a Linux VM) the build would fail deep inside; there the runner is layered on a base
 * image with `node` on its PATH instead (EVOLVE_BASE_IMAGE, e.g. node:20-slim), which the
 * user's engine pulls once. The host's platform is read in this file and nowhere else.
 */
import { EvolveError } from "../../../harness/src/kernel/index.js";

/** The base image we suggest: an official Node image whose major version matches the contract's floor (engines.node ≥ 20). */
export const SUGGESTED_BASE_IMAGE = "node:20-slim";

const NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: "macOS", win32: "Windows", linux: "Linux" };

/** The host's operating system. The one read of process.platform (tests fake the platform here). */
export function hostPlatform(): NodeJS.Platform {
  return process.platform;
}

/** The platform in words: "macOS (darwin)". */
export function platformName(platform: NodeJS.Platform = hostPlatform()): string {
  return `${NAMES[platform] ?? platform} (${platform})`;
}

/**
 * The base image the runtime image is layered on: EVOLVE_BASE_IMAGE, or null for the
 * default built from the host's node. Off Linux without EVOLVE_BASE_IMAGE there is no default
 * to build: a harness error that says what to set.
 */
export function runtimeBaseImage(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = hostPlatform()): string | null {
  const named = env["EVOLVE_BASE_IMAGE"]?.trim();
  if (named) return named;
  if (platform === "linux") return null;
  throw new EvolveError(
    "image_build_failed",
    `this host runs ${platformName(platform)}: the default runtime image is built from the host's own node, which only works on Linux`,
    { hint: `set EVOLVE_BASE_IMAGE=${SUGGESTED_BASE_IMAGE} (any image with node on its PATH; your Docker engine pulls it once), ${example(platform)}` },
  );
}

/** How to set it for one command, in the shell of that platform. */
function example(platform: NodeJS.Platform): string {
  return platform === "win32"
    ? `e.g. in PowerShell $env:EVOLVE_BASE_IMAGE="${SUGGESTED_BASE_IMAGE}"; npx evolve run`
    : `e.g. EVOLVE_BASE_IMAGE=${SUGGESTED_BASE_IMAGE} npx evolve run`;
}
