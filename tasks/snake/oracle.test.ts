import { describe, expect, it } from "vitest";
import { loadTask, type Task } from "../../harness/src/evaluation/index.js";

const task: Task = await loadTask(new URL(".", import.meta.url).pathname);
const oracle = task.oracle!;

describe("snake oracle", () => {
  it("makes a game scaled by the board's area, as the visible games are, that the grader accepts", async () => {
    const cases: [{ width: number; height: number; seed: number }, number, number][] = [
      [{ width: 10, height: 10, seed: 11 }, 200, 25],
      [{ width: 5, height: 5, seed: 0 }, 50, 6],
      [{ width: 20, height: 7, seed: 2 ** 31 - 1 }, 280, 35],
    ];
    for (const [proposal, maxSteps, target] of cases) {
      const judged = await oracle.judge(oracle.proposalSchema.parse(proposal), "arena-t0001-2");
      expect(judged).toEqual({ ok: true, instance: { id: "arena-t0001-2", ...proposal, maxSteps, target }, verdict: expect.stringContaining(`target ${target}`) });
      if (judged.ok) expect(task.grader.instanceSchema.safeParse(judged.instance).success).toBe(true);
    }
    // Same proposal, same instance: the oracle is deterministic.
    const a = await oracle.judge({ width: 8, height: 9, seed: 3 }, "arena-t0001-1");
    expect(await oracle.judge({ width: 8, height: 9, seed: 3 }, "arena-t0001-1")).toEqual(a);
  });

  it("refuses boards out of range, fractional numbers, negative seeds and extra keys in its schema", () => {
    for (const bad of [{ width: 4, height: 10, seed: 1 }, { width: 10, height: 21, seed: 1 }, { width: 10.5, height: 10, seed: 1 }, { width: 10, height: 10, seed: -1 }, { width: 10, height: 10, seed: 2 ** 31 }, { width: 10, height: 10, seed: 1, maxSteps: 9 }])
      expect(oracle.proposalSchema.safeParse(bad).success).toBe(false);
    expect(oracle.limits).toEqual({ perRound: 6, maxBytes: 256 });
  });
});
