/**
 * Hostile candidates (JS build dirs written here, run only in containers) that crash, hang,
 * flood stdout, print junk, exit before answering or throw: each affected instance scores 0
 * with the right reason and the evaluation goes on with a fresh session.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InstanceResult } from "../../harness/src/results/index.js";
import { evaluateCandidate, loadTask } from "../../harness/src/evaluation/index.js";
import { testEngine } from "../support/test-engine.js";
import { writeBuild } from "./emit-seed.js";

const repo = new URL("../../", import.meta.url).pathname;
const task = await loadTask(join(repo, "tasks", "circle-packing"));

// A valid (poor) packing for any n: a k x k grid of equal circles. Misbehaviour is keyed on n.
const hostile = `
import { writeSync } from "node:fs";
function grid(n) {
  const k = Math.ceil(Math.sqrt(n)), r = 0.5 / k, circles = [];
  for (let i = 0; i < n; i++) circles.push([(2 * (i % k) + 1) * r, (2 * Math.floor(i / k) + 1) * r, r]);
  return { circles };
}
export async function solve(input) {
  switch (input.n) {
    case 12: process.exit(0);                                   // exits before answering
    case 16: for (;;) {}                                        // hangs
    case 20: writeSync(1, "x".repeat(1 << 20).repeat(40)); return grid(20); // floods stdout
    case 24: writeSync(1, "not json at all\\n"); return grid(24);          // junk on the protocol
    case 10: setTimeout(() => { throw new Error("boom"); }, 0); return new Promise(() => {}); // crashes
    case 18: throw new Error("cannot pack 18");                 // solve throws; the session lives on
    case 32: return { circles: new Array(32).fill([0.5, 0.5, 0.5]) };     // overlapping circles
    default: return grid(input.n);
  }
}
`;

const buildDir = await writeBuild({ "task/index.js": hostile }, "evolve-hostile-");
afterAll(() => rm(buildDir, { recursive: true, force: true }));

function byId(results: InstanceResult[], n: number): InstanceResult {
  const found = results.find((r) => r.id.endsWith(`-n${n}`));
  if (found === undefined) throw new Error(`no result for n=${n}`);
  return found;
}

describe("evaluation of hostile candidates", () => {
  it("scores each misbehaving instance 0 with its reason and goes on", async () => {
    const { engine, image, session } = await testEngine();
    const result = await evaluateCandidate({
      engine, image, task, buildDir, labels: { session, phase: "test" }, seed: 7,
      visible: "full", heldout: true, instanceTimeoutMs: 4000, maxRestarts: 6,
    });
    const all = result.stages.flatMap((s) => s.instances);
    console.log(JSON.stringify(all.map((i) => [i.id, i.score, i.error?.slice(0, 120)]), null, 1));
    expect(result.stages.map((s) => s.stage)).toEqual(["stage1", "visible", "heldout"]);

    const good = [26, 30, 28].map((n) => byId(all, n));
    for (const r of good) {
      expect(r.error).toBeNull();
      expect(r.score).toBeGreaterThan(0.5);
    }
    expect(byId(all, 12)).toMatchObject({ score: 0, error: expect.stringMatching(/^crash: .*exit/) });
    expect(byId(all, 16)).toMatchObject({ score: 0, error: expect.stringMatching(/^timeout: no answer within/) });
    expect(byId(all, 16).durationMs).toBeLessThan(4000 + 3000);
    expect(byId(all, 20)).toMatchObject({ score: 0, error: expect.stringMatching(/^(protocol|crash): /) });
    expect(byId(all, 24)).toMatchObject({ score: 0, error: expect.stringMatching(/^protocol: .*not a/) });
    expect(byId(all, 10)).toMatchObject({ score: 0, error: expect.stringMatching(/^crash: /) });
    expect(byId(all, 18)).toMatchObject({ score: 0, error: expect.stringMatching(/^error: solve threw: .*cannot pack 18/) });
    expect(byId(all, 32)).toMatchObject({ score: 0, error: expect.stringMatching(/^invalid output: invalid packing: overlap: circles 0 and 1/) });

    expect(result.visibleScore).toBeCloseTo((byId(all, 26).score + byId(all, 30).score) / 6, 12);
    expect(result.heldoutScore).toBeCloseTo(byId(all, 28).score / 4, 12);
    // The candidate's time is the sum of its calls, not the containers' start-up.
    expect(result.computeMs).toBeGreaterThan(4000);
    expect(result.computeMs).toBeLessThan(result.durationMs);
  });

  it("stops opening sessions after the restart limit and scores the rest as not run", async () => {
    const { engine, image, session } = await testEngine();
    const crashing = await writeBuild({ "task/index.js": "export async function solve() { process.exit(1); }" });
    try {
      const result = await evaluateCandidate({
        engine, image, task, buildDir: crashing, labels: { session, phase: "test" }, seed: 7, visible: "full", maxRestarts: 1,
      });
      const all = result.stages.flatMap((s) => s.instances);
      expect(all.map((i) => i.score)).toEqual([0, 0, 0, 0, 0, 0]);
      // The restart budget is per stage: stage 1 (2 instances) and the visible stage (4) each get 1 + 1 sessions.
      for (const k of [0, 1, 2, 3]) expect(all[k]!.error).toMatch(/^crash: /);
      for (const k of [4, 5]) expect(all[k]!.error).toMatch(/^not run: the candidate's session failed 2 times/);
      expect(result.passedStage1).toBe(false);
    } finally {
      await rm(crashing, { recursive: true, force: true });
    }
  });

  it("skips the rest of the visible split below the stage-1 threshold", async () => {
    const { engine, image, session } = await testEngine();
    const result = await evaluateCandidate({
      engine, image, task, buildDir, labels: { session, phase: "test" }, seed: 7, instanceTimeoutMs: 4000,
    });
    // Stage 1 is n=26 (fine) and n=12 (exits): below the 0.5 threshold, so no visible stage.
    expect(result.passedStage1).toBe(false);
    expect(result.stages.map((s) => s.stage)).toEqual(["stage1"]);
    expect(result.heldoutScore).toBeNull();
  });
});
