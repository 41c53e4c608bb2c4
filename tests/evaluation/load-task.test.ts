import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EvolveError } from "../../harness/src/kernel/index.js";
import { loadTask } from "../../harness/src/evaluation/index.js";

const root = await mkdtemp(join(tmpdir(), "evolve-load-task-"));
afterAll(() => rm(root, { recursive: true, force: true }));
const repo = new URL("../../", import.meta.url).pathname;

async function taskDir(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  return dir;
}

const graderSource = `
import { z } from "zod";
export const grader = {
  instanceSchema: z.object({ id: z.string(), n: z.number().int() }),
  async grade() { return { score: 0, value: null, feedback: "" }; },
};`;

describe("loadTask", () => {
  it("loads the three built-in tasks", async () => {
    for (const name of ["circle-packing", "email-validation", "snake"]) {
      const task = await loadTask(join(repo, "tasks", name));
      expect(task.manifest.name).toBe(name);
      expect(task.visible.length).toBeGreaterThanOrEqual(task.manifest.stages.stage1Size);
      expect(task.heldout.length).toBeGreaterThan(0);
      expect(typeof task.grader.grade).toBe("function");
    }
  });

  it("defaults repeats to 1", async () => {
    const task = await loadTask(join(repo, "tasks", "email-validation"));
    expect(task.manifest.repeats).toBe(1);
  });

  it("reports every problem of a folder in one invalid_task error", async () => {
    const dir = await taskDir("Bad-Task", {
      "task.json": JSON.stringify({
        name: "Not Kebab",
        description: "",
        metric: "m",
        direction: "upward",
        instanceTimeoutMs: -1,
        evaluationTimeoutMs: 1000,
        stages: { stage1Size: 5, threshold: 2 },
      }),
      "visible.json": JSON.stringify([{ id: "a", n: 1 }, { id: "a", n: 2 }, { n: "x" }]),
      "heldout.json": "{not json",
      "grader.ts": graderSource,
    });
    const error = await loadTask(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvolveError);
    expect((error as EvolveError).code).toBe("invalid_task");
    const message = (error as EvolveError).message;
    for (const part of [
      "task.json: name: name must be kebab-case",
      "task.json: description",
      "task.json: direction",
      "task.json: instanceTimeoutMs",
      "task.json: stages.threshold",
      "visible.json[2]",
      'duplicate instance id "a"',
      "heldout.json: not JSON",
    ])
      expect(message).toContain(part);
  });

  it("reports a missing grader, missing splits and a stage-1 size beyond the visible split", async () => {
    const dir = await taskDir("no-grader", {
      "task.json": JSON.stringify({
        name: "no-grader",
        description: "d",
        metric: "m",
        direction: "maximize",
        instanceTimeoutMs: 1000,
        evaluationTimeoutMs: 1000,
        stages: { stage1Size: 3, threshold: 0.5 },
      }),
      "visible.json": JSON.stringify([{ id: "v1" }]),
    });
    const message = await loadTask(dir).then(
      () => "",
      (e: unknown) => (e as Error).message,
    );
    expect(message).toContain("grader.ts: missing");
    expect(message).toContain("heldout.json: cannot read");
    expect(message).toContain("stage1Size 3 exceeds the 1 visible instances");
  });

  it("reports a grader without the required export", async () => {
    const dir = await taskDir("wrong-export", {
      "task.json": JSON.stringify({
        name: "wrong-export",
        description: "d",
        metric: "m",
        direction: "maximize",
        instanceTimeoutMs: 1000,
        evaluationTimeoutMs: 1000,
        stages: { stage1Size: 1, threshold: 0.5 },
      }),
      "visible.json": JSON.stringify([{ id: "v1", n: 1 }]),
      "heldout.json": JSON.stringify([{ id: "h1", n: 1 }]),
      "grader.ts": "export const notAGrader = 1;",
    });
    await expect(loadTask(dir)).rejects.toThrow(/exports no `grader` \(it exports notAGrader\)/);
  });
});
