/**
 * The seed meta agent in the tester role (a test generation of an arena run), on the in-memory
 * engine: offline it changes files under tester/ only, the result passes all four gates with the
 * tester required, and it is the same for the same seed; with a (scripted) model it applies the
 * model's edits under tester/ and no other.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImproveRequest } from "@evolve/contract";
import { readOwnTree } from "../../harness/src/archive/index.js";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import { runImprove } from "../../sandbox/src/index.js";
import { WireLlmRequest, type WireJson } from "../../harness/src/kernel/index.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { compileTree, SEED_DIR } from "./agent-tree.js";
import { improveRequest } from "./improve-request.js";
import { seedImprove } from "./seed-improve.js";

let env: TestEngine;
let work: string;
let buildDir: string;
let validator: Validator;

beforeAll(async () => {
  env = await memoryEngine();
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

describe("seed meta agent, tester role, with a model", () => {
  it("applies the model's edit of tester/ and refuses its edit of anything else", async () => {
    const reply = [
      "SUMMARY: fewer, sharper probes",
      "tester/params.ts",
      "<<<<<<< SEARCH",
      "  fill: 1, // evolve:range 0.2..1",
      "=======",
      "  fill: 0.5, // evolve:range 0.2..1",
      ">>>>>>> REPLACE",
      "meta/index.ts",
      "<<<<<<< SEARCH",
      "",
      "=======",
      "export const hijacked = true;",
      ">>>>>>> REPLACE",
    ].join("\n");
    const prompts: string[] = [];
    const takeTo = join(await mkdtemp(join(work, "take-llm-")), "tree");
    const result = await runImprove({
      engine: env.engine,
      image: env.image,
      labels: { session: env.session, phase: "improve" },
      buildDir,
      agentDir: SEED_DIR,
      takeTo,
      timeoutMs: 120_000,
      init: { task: "email-validation", seed: 3, llmAvailable: true, deadline: Date.now() + 100_000, request: testerRequest(3) },
      onLlm: async (raw) => {
        prompts.push(WireLlmRequest.parse(raw).messages.map((m) => ("content" in m ? m.content : "")).join("\n"));
        return { ok: true, response: { content: reply, toolCalls: [], finishReason: "stop", promptTokens: 10, completionTokens: 10 } };
      },
    });
    expect(result.end, result.outcome.stderr).toBeNull();
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("TESTER");
    expect(prompts[0]).toContain("## tester/index.ts");
    const changed = changedPaths(await readOwnTree(SEED_DIR), await readOwnTree(takeTo));
    expect(changed).toEqual(["tester/params.ts"]);
    expect(result.report).toMatchObject({ changedFiles: ["tester/params.ts"] });
    expect((result.report as { summary: string }).summary).toMatch(/^llm tester: fewer, sharper probes/);
  });
});
