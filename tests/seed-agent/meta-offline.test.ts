/**
 * The seed meta agent's offline strategy, run by the trusted runner on the in-memory engine
 * against the seed tree: a non-empty change that compiles, reproducible for a seed, and
 * steered by the lineage.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LineageStep } from "@evolve/contract";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import { compileTree, oneKnobTree, SEED_DIR } from "./agent-tree.js";
import { readOwnTree } from "../../harness/src/archive/index.js";
import { improveRequest } from "./improve-request.js";
import { seedImprove } from "./seed-improve.js";

let env: TestEngine;
let work: string;
let buildDir: string;
let validator: Validator;

beforeAll(async () => {
  env = await memoryEngine();
  work = await mkdtemp(join(tmpdir(), "evolve-seed-meta-"));
  buildDir = join(work, "build");
  validator = createValidator();
  expect(await compileTree(validator, SEED_DIR, buildDir, null)).toBeNull();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Runs the seed's improve on `agentDir` with no LLM; returns the report and the tree it left. */
function improveOffline(agentDir: string, task: string, seed: number, lineage: LineageStep[] = [], build = buildDir) {
  return seedImprove(env, { agentDir, buildDir: build, workDir: work, task, seed, request: improveRequest(task, seed, lineage) });
}

function changedPaths(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

describe("seed meta agent, offline strategy", () => {
  it("makes a non-empty change that compiles, the same for the same seed and different for another", async () => {
    const seedTree = await readOwnTree(SEED_DIR);
    const first = await improveOffline(SEED_DIR, "circle-packing", 11);
    const again = await improveOffline(SEED_DIR, "circle-packing", 11);
    const other = await improveOffline(SEED_DIR, "circle-packing", 12);

    const changed = changedPaths(seedTree, first.tree);
    expect(changed.length).toBeGreaterThan(0);
    expect([...first.report.changedFiles].sort()).toEqual(changed);
    expect(first.report.summary).toMatch(/^offline: \S+ \S+→\S+ \(\S+\)/);
    expect(first.report.summary).not.toContain("\n");
    // All four gates, the import check in a container included.
    const validated = await validator.validateRewrite({
      childDir: first.takeTo,
      parentDir: SEED_DIR,
      buildDir: join(work, "check-first"),
      engine: env.engine,
      image: env.image,
      labels: { session: env.session, phase: "validate" },
    });
    expect(validated.ok ? null : validated.failure).toBeNull();

    expect(again.tree).toEqual(first.tree);
    expect(again.report).toEqual(first.report);
    expect(other.tree).not.toEqual(first.tree);
    expect(await compileTree(validator, other.takeTo, join(work, "check-other"), SEED_DIR)).toBeNull();
  });

  it("keeps moving a knob whose last move raised the score and backs off one that lowered it", async () => {
    // A tree whose only task knob is `params.iterations`, and whose search parameters (in the
    // build that runs, not only in the tree) always edit it, once, and nothing else.
    const tree = join(work, "fixture-tree");
    await oneKnobTree(tree);
    const fixtureBuild = join(work, "fixture-build");
    expect(await compileTree(validator, tree, fixtureBuild, SEED_DIR)).toBeNull();
    const moved = "params.iterations 200→400 (task/fixture.ts)";

    for (const seed of [1, 2]) {
      const helped = await improveOffline(tree, "fixture", seed, [
        { id: "g0000", score: 0.3, summary: "seed" },
        { id: "g0001", score: 0.5, summary: `offline: ${moved}` },
      ], fixtureBuild);
      expect(helped.report.changedFiles).toEqual(["task/fixture.ts"]);
      const up = /^offline: params\.iterations 400→(\d+) \(task\/fixture\.ts\)$/.exec(helped.report.summary);
      expect(up, helped.report.summary).not.toBeNull();
      expect(Number(up?.[1])).toBeGreaterThan(400);
      expect(helped.tree.get("task/fixture.ts")).toContain(`iterations: ${up?.[1]}, // evolve:range`);

      const hurt = await improveOffline(tree, "fixture", seed, [
        { id: "g0000", score: 0.5, summary: "seed" },
        { id: "g0001", score: 0.3, summary: `offline: ${moved}` },
      ], fixtureBuild);
      const down = /^offline: params\.iterations 400→(\d+) \(task\/fixture\.ts\)$/.exec(hurt.report.summary);
      expect(down, hurt.report.summary).not.toBeNull();
      expect(Number(down?.[1])).toBeLessThan(400);
      // Backing off takes a smaller step than pushing on.
      expect(400 - Number(down?.[1])).toBeLessThan(Number(up?.[1]) - 400);
    }
  });

  it("never moves a plain number in its own meta/ code, even with no annotated setting left", async () => {
    // Once moved `moduleResolution: 99` in meta/knob-search.ts: the in-memory check cannot see
    // ts-morph's types, and the child failed to compile (bench/models.ts, sort-numbers).
    const tree = join(work, "plain-tree");
    await cp(SEED_DIR, tree, { recursive: true });
    const paramsPath = join(tree, "meta/search-params.ts");
    await writeFile(paramsPath, (await readFile(paramsPath, "utf8")).replace(/ *\/\/ evolve:.*$/gm, ""));
    const plainBuild = join(work, "plain-build");
    expect(await compileTree(validator, tree, plainBuild, SEED_DIR)).toBeNull();
    for (const seed of [1, 2]) {
      const { report, tree: after } = await improveOffline(tree, "email-validation", seed, [], plainBuild);
      const before = await readOwnTree(tree);
      const changed = changedPaths(before, after);
      expect(changed.length, report.summary).toBeGreaterThan(0);
      expect(changed.filter((p) => p.startsWith("meta/")), report.summary).toEqual([]);
    }
  });

  it("tries another knob when an edit would add a type error to its file", async () => {
    // The fixture's only task knob can only move to a value its declared type forbids.
    const tree = join(work, "typed-tree");
    await cp(SEED_DIR, tree, { recursive: true });
    const fixture = 'type Mode = "a" | "b";\nexport const params: { mode: Mode } = {\n  mode: "a", // evolve:choices "a" | "oops"\n};\n';
    await writeFile(join(tree, "task/fixture.ts"), fixture);
    const paramsPath = join(tree, "meta/search-params.ts");
    await writeFile(paramsPath, (await readFile(paramsPath, "utf8")).replace(/taskFileBias: [\d.]+,/, "taskFileBias: 1,"));
    const typedBuild = join(work, "typed-build");
    expect(await compileTree(validator, tree, typedBuild, SEED_DIR)).toBeNull();

    for (const seed of [1, 2, 3]) {
      const { report, tree: after, takeTo } = await improveOffline(tree, "fixture", seed, [], typedBuild);
      expect(after.get("task/fixture.ts")).toBe(fixture);
      expect(report.changedFiles.length).toBeGreaterThan(0);
      expect(report.summary).not.toContain("task/fixture.ts");
      expect(await compileTree(validator, takeTo, join(work, `typed-check-${seed}`), tree)).toBeNull();
    }
  });
});
