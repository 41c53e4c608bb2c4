/** An archived snapshot compiled to the JS the evaluation runs, with the harness's own compile gate. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createValidator } from "../../harness/src/validation/index.js";

export async function compileTree(snapshotDir: string): Promise<{ dir: string; dispose(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), "evolve-bench-build-"));
  const dir = join(root, "build");
  const validator = createValidator();
  try {
    const outcome = await validator.validateStatic({ childDir: snapshotDir, buildDir: dir, parentDir: null });
    if (!outcome.ok) throw new Error(`${snapshotDir} does not compile: ${outcome.failure.message}`);
  } finally {
    await validator.close();
  }
  return { dir, dispose: () => rm(root, { recursive: true, force: true }) };
}
