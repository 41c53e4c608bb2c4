/**
 * The seed meta agent in the tester role (a test generation of an arena run), offline, in real
 * containers: it changes files under tester/ only, the result passes all four gates with the
 * tester required, and it is the same for the same seed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImproveRequest } from "@evolve/contract";
import { readOwnTree } from "../../harness/src/archive/index.js";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import type { WireJson } from "../../sandbox/src/index.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";
import { compileTree, SEED_DIR } from "./agent-tree.js";
import { improveRequest } from "./improve-request.js";
import { seedImprove } from "./seed-improve.js";

let env: TestEngine;
let work: string;
let buildDir: string;
let validator: Validator;

beforeAll(async () => {
  env = await testEngine();
  work = await mkdtemp(join(tmpdir(), "evolve-seed-tester-role-"));
  buildDir = join(work, "build");
  validator = createValidator();
  expect(await compileTree(validator, SEED_DIR, buildDir, null)).toBeNull();
});
afterAll(async () => {
  await validator.close();
  await rm(work, { recursive: true, force: true });
});

/** A tester-role request as the arena sends it: the parent's proposals as feedback, no evaluations. */
function testerRequest(seed: number): ImproveRequest & WireJson {
  const base: ImproveRequest = improveRequest("email-validation", seed);
  const request: ImproveRequest = {
    ...base,
    role: "tester",
    generation: { id: "t0002", parent: "t0001", depth: 1 },
    feedback: {
      score: 0.25,
      instances: [
        { id: "t0001-1", score: 1, feedback: "entered the suite: g0003 fails it" },
        { id: "t0001-2", score: 0, feedback: "no candidate fails it" },
      ],
      stderr: "",
    },
    lineage: [{ id: "t0001", score: 0.25, summary: "the seed's tester" }],
  };
  return request as ImproveRequest & WireJson;
}

function changedPaths(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

describe("seed meta agent, tester role, offline", () => {
  it("moves tester knobs only, deterministically, and the tree stays a valid tester", async () => {
    const seedTree = await readOwnTree(SEED_DIR);
    const run = (seed: number) => seedImprove(env, { agentDir: SEED_DIR, buildDir, workDir: work, task: "email-validation", seed, request: testerRequest(seed) });
    const first = await run(5);
    const again = await run(5);

    const changed = changedPaths(seedTree, first.tree);
    expect(changed.length).toBeGreaterThan(0);
    for (const path of changed) expect(path.startsWith("tester/"), path).toBe(true);
    expect([...first.report.changedFiles].sort()).toEqual(changed);
    expect(first.report.summary).toMatch(/^offline: tester\.\S+ \S+→\S+ \(tester\/params\.ts\)/);
    expect(again.tree).toEqual(first.tree);

    const validated = await validator.validateRewrite({
      childDir: first.takeTo,
      parentDir: SEED_DIR,
      buildDir: join(work, "check"),
      engine: env.engine,
      image: env.image,
      labels: { session: env.session, phase: "validate" },
      requireTester: true,
    });
    expect(validated.ok ? null : validated.failure).toBeNull();
  });
});
