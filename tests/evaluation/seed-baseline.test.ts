/**
 * The seed agent, evaluated on the in-memory engine, reaches its documented baseline on each
 * task (both splits). Baselines were measured with this very evaluation (see each task's README).
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateCandidate, loadTask } from "../../harness/src/evaluation/index.js";
import { memoryEngine } from "../support/memory-engine.js";
import { emitSeedTask } from "./emit-seed.js";

const repo = new URL("../../", import.meta.url).pathname;
const buildDir = await emitSeedTask();
afterAll(() => rm(buildDir, { recursive: true, force: true }));

/** Measured seed baselines (seed 1): visible mean, held-out mean. */
const BASELINES: Record<string, { visible: number; heldout: number; tolerance: number }> = {
  // Deterministic for a seed (ctx.random, seeded food), so the tolerances are tight.
  "circle-packing": { visible: 0.9332, heldout: 0.9266, tolerance: 0.002 },
  "email-validation": { visible: 47 / 60, heldout: 26 / 40, tolerance: 1e-9 },
  snake: { visible: 0.65, heldout: 0.7867, tolerance: 0.001 },
};

describe.each(Object.keys(BASELINES))("seed agent on %s", (name) => {
  it("reaches its documented baseline on the visible and held-out splits", async () => {
    const { engine, image, session } = await memoryEngine();
    const task = await loadTask(join(repo, "tasks", name));
    const result = await evaluateCandidate({
      engine, image, task, buildDir, labels: { session, phase: "test" }, seed: 1, visible: "full", heldout: true,
    });
    const summary = {
      task: name,
      visible: result.visibleScore,
      heldout: result.heldoutScore,
      durationMs: result.durationMs,
      computeMs: result.computeMs,
      instances: result.stages.flatMap((s) => s.instances.map((i) => `${i.id}: ${i.score.toFixed(4)} ${i.error ?? ""} ${i.feedback}`)),
      stderr: result.stages.map((s) => s.stderr).join("").slice(0, 500),
    };
    console.log(JSON.stringify(summary, null, 2));
    const expected = BASELINES[name]!;
    for (const stage of result.stages) for (const i of stage.instances) expect(i.error, `${i.id}: ${i.feedback}`).toBeNull();
    expect(result.visibleScore).toBeGreaterThan(expected.visible - expected.tolerance);
    expect(result.visibleScore).toBeLessThan(expected.visible + expected.tolerance);
    expect(result.heldoutScore).toBeGreaterThan(expected.heldout - expected.tolerance);
    expect(result.heldoutScore).toBeLessThan(expected.heldout + expected.tolerance);
  });
});
