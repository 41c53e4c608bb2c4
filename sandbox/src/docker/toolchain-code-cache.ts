/**
 * Makes the runtime image's V8 code caches for its toolchain (sandbox/runner/code-cache.ts says
 * what they are and how the runner uses them). They are made in a fresh process of the very
 * Node binary the image copies, with no flags and an empty environment, because V8 takes a
 * cache only from the same V8 version under the same flags, and the container runs that binary
 * with none. The process runs the staged runner's own code-cache.js, so the caches are made
 * by the code that reads them.
 *
 * They only make a start faster: when they cannot be made, the image is built without them
 * and says so on stderr, and every container loads its toolchain as before.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runNodeScript } from "./node-script.js";

/** Making them loads and type-checks with ts-morph once: a few seconds of CPU, rarely more. */
const MAKE_TIMEOUT_MS = 120_000;

/**
 * Writes the caches into the staged root `rootfs`, whose runner is at `runnerDir` (a folder
 * inside it; the caches go beside it, where the runner looks). Returns the image paths cached,
 * or the reason none were.
 */
export function makeToolchainCodeCache(nodeBinary: string, rootfs: string, runnerDir: string): Promise<{ ok: true; files: string[] } | { ok: false; reason: string }> {
  const module = pathToFileURL(join(runnerDir, "code-cache.js")).href;
  const program = `const { makeCodeCaches } = await import(${JSON.stringify(module)});\nprocess.stdout.write(JSON.stringify(makeCodeCaches(${JSON.stringify(rootfs)})));`;
  return runNodeScript(nodeBinary, program, MAKE_TIMEOUT_MS).then((run) => (run.ok ? { ok: true, files: run.value as string[] } : run));
}
