/**
 * Before any test: a reachable engine, the runtime image, and no leftovers of dead
 * sessions. No engine is a failure, never a skip: container tests are the point.
 *
 * And one temporary folder for everything the tests put in the system's: TMPDIR points into
 * it for the test processes and every process they start (os.tmpdir() reads it), and it is
 * removed when the tests end. Tests make thousands of temporary folders, many of them in
 * helpers that cannot know when the last test is done with them; without this they stayed in
 * /tmp (on 2026-11-26 the developers' machine held 3,436 of them, 424 MB, from one day's
 * runs). Its name is short: the fleet tests' engines keep their sockets in folders under it,
 * and a Unix socket's path may not exceed 107 bytes.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectEngines } from "../../sandbox/src/index.js";
import { EvolveError } from "../../harness/src/kernel/index.js";

export default async function setup(): Promise<() => Promise<void>> {
  let engine;
  try {
    engine = await connectEngines();
  } catch (error) {
    const hint = error instanceof EvolveError && error.hint ? `\n  ${error.hint}` : "";
    throw new Error(`tests need a Docker engine: ${(error as Error).message}${hint}`);
  }
  const image = await engine.ensureRuntimeImage({ onProgress: (m) => console.log(m) });
  const swept = await engine.sweep();
  if (swept.containers + swept.volumes > 0) {
    console.log(`swept ${swept.containers} containers and ${swept.volumes} volumes left by dead sessions`);
  }
  console.log(`engine ${engine.endpoint}; runtime image ${image.tag}${image.built ? " (built)" : ""}`);
  const temp = await mkdtemp(join(tmpdir(), "evt-"));
  process.env["TMPDIR"] = temp;
  // The check workers' verified-file store: shared by this run's tests, never a developer's own.
  process.env["EVOLVE_CACHE_DIR"] = join(temp, "cache");
  return async () => {
    await rm(temp, { recursive: true, force: true }).catch((error: unknown) => console.log(`could not remove the tests' temporary folder ${temp}: ${String(error)}`));
  };
}
