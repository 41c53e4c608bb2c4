/**
 * Bring your own task and agent, end to end, in a folder outside the repository with no
 * package.json or node_modules: scaffold, check, run (real containers), and a hand-written
 * grader that imports zod, the task API and a file of its own.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_BIN, runEvolve } from "./cli-process.js";

let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "evolve-byo-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const evolve = (...args: string[]) => runEvolve(CHECKOUT_BIN, args, home);

describe("a task and an agent of one's own, from a bare folder", () => {
  it("evolve new task / new agent / check / run --generations 2", async () => {
    expect(await readdir(home)).toEqual([]);
    const task = await evolve("new", "task", "my-task");
    expect(task.code, task.stderr).toBe(0);
    expect(task.stdout).toContain("grader.ts");
    const seedCopy = await evolve("new", "agent", "seed-copy");
    expect(seedCopy.code, seedCopy.stderr).toBe(0);
    const blank = await evolve("new", "agent", "my-agent", "--blank");
    expect(blank.code, blank.stderr).toBe(0);
    expect((await evolve("new", "task", "my-task")).stderr).toContain("exists and is not empty");

    const checked = await evolve("check", "--task", "my-task", "--agent", "my-agent");
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/task my-task .*: ok: 3 visible and 2 held-out instances/);
    expect(checked.stdout).toMatch(/agent .*my-agent: ok: policy, compile, signature and import/);
    const seedChecked = await evolve("check", "--agent", "seed-copy");
    expect(seedChecked.code, seedChecked.stdout + seedChecked.stderr).toBe(0);

    const run = await evolve("run", "--task", "./my-task", "--agent", "./my-agent", "--generations", "2", "--workers", "2");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("task my-task, 2 generations");
    expect(run.stdout).toMatch(/finished: 2\/2 children \(2 valid, 0 invalid\)/);
    // The blank agent's one bubble-sort pass: partly right, and scored by the scaffolded grader.
    expect(run.stdout).toMatch(/g0000 \(seed\) valid: visible 0\.4417/);
    // The archive lands in the folder evolve runs in.
    expect((await readdir(join(home, "generations"))).filter((f) => f.startsWith("run-"))).toHaveLength(1);
  });

  it("runs a hand-written grader that imports zod, evolve/task and a file of its own", async () => {
    const dir = join(home, "hand-sort");
    await mkdir(dir);
    await writeFile(
      join(dir, "task.json"),
      JSON.stringify({
        name: "hand-sort",
        description: "Sort { numbers } ascending.",
        metric: "exact answers",
        direction: "maximize",
        instanceTimeoutMs: 5000,
        evaluationTimeoutMs: 30000,
        stages: { stage1Size: 1, threshold: 0 },
      }),
    );
    await writeFile(join(dir, "visible.json"), JSON.stringify([{ id: "a", numbers: [2, 1] }, { id: "b", numbers: [3, 2, 1] }]));
    await writeFile(join(dir, "heldout.json"), JSON.stringify([{ id: "c", numbers: [1, 2, 3] }]));
    await writeFile(join(dir, "reference.ts"), "export const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);\n");
    await writeFile(
      join(dir, "grader.ts"),
      `import { z } from "zod";
import { defineGrader, noAnswer, parseAnswer, type Grader } from "evolve/task";
import { sorted } from "./reference.js";

const Instance = z.object({ id: z.string(), numbers: z.array(z.number()) });
export const grader: Grader<z.infer<typeof Instance>> = defineGrader({
  instanceSchema: Instance,
  async grade(instance, solve) {
    const reply = await solve({ numbers: instance.numbers });
    if (!reply.ok) return noAnswer(reply);
    const answer = parseAnswer(z.array(z.number()), reply.value);
    if (!answer.ok) return { score: 0, value: null, feedback: answer.reason };
    const exact = JSON.stringify(answer.value) === JSON.stringify(sorted(instance.numbers)) ? 1 : 0;
    return { score: exact, value: exact, feedback: exact === 1 ? "sorted" : "not sorted" };
  },
});
`,
    );
    const run = await evolve("run", "--task", "hand-sort", "--agent", "my-agent", "--generations", "2", "--workers", "1", "--out", "hand-runs");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // One pass of bubble sort sorts [2, 1] but not [3, 2, 1]; the held-out instance is sorted already.
    expect(run.stdout).toMatch(/g0000 \(seed\) valid: visible 0\.5000, held-out 1\.0000/);
    expect(run.stdout).toMatch(/finished: 2\/2 children/);
  });
});
