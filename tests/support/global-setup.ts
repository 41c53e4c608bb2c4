/**
 * Before any test: a reachable engine, the runtime image, and no leftovers of dead
 * sessions. No engine is a failure, never a skip: container tests are the point.
 */
import { connectEngines } from "../../sandbox/src/index.js";
import { EvolveError } from "../../harness/src/kernel/index.js";

export default async function setup(): Promise<void> {
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
}
