/**
 * Host-side helpers for agent trees in tests: compile one through the
 * harness's validation gates (policy, compile, signature; emit to a build dir). Agent code
 * is only read and compiled here, never executed.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Validator } from "../../harness/src/validation/index.js";

export const SEED_DIR = resolve(import.meta.dirname, "../../seed-agent");

/**
 * Gates 0–2 over `treeDir` (against `parentDir`, or as a seed when null); on success the
 * emitted JS is in `buildDir`. Returns null, or the failure in words.
 */
export async function compileTree(validator: Validator, treeDir: string, buildDir: string, parentDir: string | null): Promise<string | null> {
  const outcome = await validator.validateStatic({ childDir: treeDir, buildDir, parentDir });
  return outcome.ok ? null : `${outcome.failure.stage}/${outcome.failure.code}: ${outcome.failure.message}`;
}

/**
 * A copy of the seed in `dir` whose only task knob is `params.iterations` (task/fixture.ts,
 * 400 in 10..20000) and whose search parameters move it once per proposal and nothing
 * else, testing three proposals when ctx.evaluate allows.
 */
export async function oneKnobTree(dir: string): Promise<void> {
  await cp(SEED_DIR, dir, { recursive: true });
  await writeFile(join(dir, "task/fixture.ts"), "export const params = {\n  iterations: 400, // evolve:range 10..20000 int\n};\n");
  const paramsPath = join(dir, "meta/search-params.ts");
  const params = (await readFile(paramsPath, "utf8"))
    .replace(/taskFileBias: [\d.]+,/, "taskFileBias: 1,")
    .replace(/selfEditRate: [\d.]+,/, "selfEditRate: 0,")
    .replace(/editsPerGeneration: \d+,/, "editsPerGeneration: 1,")
    .replace(/innerSteps: \d+,/, "innerSteps: 3,");
  await writeFile(paramsPath, params);
}
