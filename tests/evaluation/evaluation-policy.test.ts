/**
 * Evaluation policy on the in-memory engine: held-out inputs reach only held-out sandboxes,
 * a throwing or malformed grader is a zero with "grader error", repeats record mean and spread.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateCandidate, loadTask, type Task } from "../../harness/src/evaluation/index.js";
import { memoryEngine } from "../support/memory-engine.js";
import { emitSeedTask, writeBuild } from "./emit-seed.js";

const repo = new URL("../../", import.meta.url).pathname;
const email = await loadTask(join(repo, "tasks", "email-validation"));
const snake = await loadTask(join(repo, "tasks", "snake"));
type EmailInstance = { id: string; addresses: string[] };

// Echoes every input it receives to stderr (console goes to stderr in the runner), answers all-false.
const echo = await writeBuild({
  "task/index.js": `export async function solve(input) {
    for (const a of input.addresses) console.log("RECEIVED " + JSON.stringify(a));
    return input.addresses.map(() => false);
  }`,
});
const seedBuild = await emitSeedTask();
afterAll(async () => {
  await rm(echo, { recursive: true, force: true });
  await rm(seedBuild, { recursive: true, force: true });
});

describe("evaluation policy", () => {
  it("sends held-out instances only to the held-out stage's containers", async () => {
    const { engine, image, session } = await memoryEngine();
    const result = await evaluateCandidate({
      engine, image, task: email, buildDir: echo, labels: { session, phase: "test" }, seed: 3, visible: "full", heldout: true,
    });
    const stderrOf = (stage: string): string => result.stages.find((s) => s.stage === stage)?.stderr ?? "";
    const visibleStderr = stderrOf("stage1") + stderrOf("visible");
    const heldoutAddresses = (email.heldout as EmailInstance[]).flatMap((i) => i.addresses);
    const visibleAddresses = (email.visible as EmailInstance[]).flatMap((i) => i.addresses);
    // Only addresses unique to the held-out split can tell where they went.
    const onlyHeldout = heldoutAddresses.filter((a) => !visibleAddresses.includes(a));
    expect(onlyHeldout.length).toBeGreaterThan(30);
    for (const a of onlyHeldout) {
      expect(visibleStderr).not.toContain(`RECEIVED ${JSON.stringify(a)}`);
      expect(stderrOf("heldout")).toContain(`RECEIVED ${JSON.stringify(a)}`);
    }
    expect(visibleStderr).toContain(`RECEIVED ${JSON.stringify(visibleAddresses[0])}`);
  });

  it("scores a throwing grader and a malformed grader outcome 0 with 'grader error' and goes on", async () => {
    const { engine, image, session } = await memoryEngine();
    let calls = 0;
    const flaky: Task = {
      ...email,
      manifest: { ...email.manifest, stages: { stage1Size: 3, threshold: 0 } },
      grader: {
        instanceSchema: email.grader.instanceSchema,
        async grade(instance, solve, ctx) {
          calls += 1;
          if (calls === 1) throw new Error("grader bug");
          if (calls === 2) return { score: Number.NaN, value: 1, feedback: "?" };
          return email.grader.grade(instance, solve, ctx);
        },
      },
    };
    const result = await evaluateCandidate({
      engine, image, task: flaky, buildDir: echo, labels: { session, phase: "test" }, seed: 3,
    });
    const [first, second, third] = result.stages[0]!.instances;
    expect(first).toMatchObject({ score: 0, error: "grader error: grader bug" });
    expect(second).toMatchObject({ score: 0, error: expect.stringMatching(/^grader error: /) });
    expect(third!.error).toBeNull();
    expect(third!.score).toBeGreaterThan(0);
  });

  it("runs repeats with different grader seeds and records each score", async () => {
    const { engine, image, session } = await memoryEngine();
    const result = await evaluateCandidate({
      engine, image, task: snake, buildDir: seedBuild, labels: { session, phase: "test" }, seed: 1, repeats: 3, visible: "stage1",
    });
    expect(result.stages).toHaveLength(1);
    for (const inst of result.stages[0]!.instances) {
      expect(inst.repeats).toHaveLength(3);
      const mean = inst.repeats!.reduce((a, b) => a + b, 0) / 3;
      expect(inst.score).toBeCloseTo(mean, 12);
      expect(inst.feedback).toMatch(/\[3 repeats: mean [\d.]+, sd [\d.]+\]/);
    }
    // Different hidden food sequences give different games.
    const all = result.stages[0]!.instances.flatMap((i) => i.repeats!);
    expect(new Set(all).size).toBeGreaterThan(1);
  });

  it("rejects invalid options before starting any container", async () => {
    const { engine, image, session } = await memoryEngine();
    await expect(
      evaluateCandidate({ engine, image, task: email, buildDir: echo, labels: { session }, seed: 1, repeats: 0 }),
    ).rejects.toMatchObject({ code: "invalid_options" });
  });
});
