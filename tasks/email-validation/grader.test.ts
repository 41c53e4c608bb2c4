import { describe, expect, it } from "vitest";
import { loadTask, type SolveCall, type Task } from "../../harness/src/evaluation/index.js";
import { isValidAddress } from "./rules.js";

const task: Task = await loadTask(new URL(".", import.meta.url).pathname);
type EmailInstance = { id: string; addresses: string[]; labels: boolean[] };
const visible = task.visible as EmailInstance[];
const heldout = task.heldout as EmailInstance[];

const answering = (value: unknown): SolveCall => async () => ({ ok: true, value, durationMs: 1 });

describe("email-validation data and grader", () => {
  it("has 60 visible and 40 held-out addresses, each label following the documented rules", () => {
    expect(visible.flatMap((i) => i.addresses)).toHaveLength(60);
    expect(heldout.flatMap((i) => i.addresses)).toHaveLength(40);
    for (const inst of [...visible, ...heldout])
      inst.addresses.forEach((a, k) => expect([a, isValidAddress(a)]).toEqual([a, inst.labels[k]]));
  });

  it("has both classes in each split", () => {
    for (const split of [visible, heldout]) {
      const labels = split.flatMap((i) => i.labels);
      expect(labels.filter(Boolean).length).toBeGreaterThan(5);
      expect(labels.filter((l) => !l).length).toBeGreaterThan(5);
    }
  });

  it("scores accuracy", async () => {
    const inst = visible[0]!;
    const perfect = await task.grader.grade(inst, answering(inst.labels), { seed: 1 });
    expect(perfect.score).toBe(1);
    const flipped = inst.labels.map((l, k) => (k < 5 ? !l : l));
    const outcome = await task.grader.grade(inst, answering(flipped), { seed: 1 });
    expect(outcome.score).toBeCloseTo(15 / 20, 12);
    expect(outcome.feedback).toMatch(/^15\/20 correct/);
  });

  const hostile: [string, unknown, RegExp][] = [
    ["a string", "true", /array of booleans/],
    ["too short", [true], /expected 20 booleans, got 1/],
    ["10 MB array", new Array(2_000_000).fill(true), /expected 20 booleans/],
    ["numbers instead of booleans", new Array(20).fill(1), /element 0 is 1/],
    ["nulls", new Array(20).fill(null), /element 0 is null/],
    ["missing (undefined)", undefined, /array of booleans/],
    ["an object", { answers: [] }, /array of booleans/],
  ];
  for (const [name, value, reason] of hostile)
    it(`scores 0 with the reason for ${name}`, async () => {
      const outcome = await task.grader.grade(visible[0]!, answering(value), { seed: 1 });
      expect(outcome).toMatchObject({ score: 0, value: null });
      expect(outcome.feedback).toMatch(reason);
    });

  it("never quotes an address in its feedback", async () => {
    const inst = heldout[0]!;
    const outcome = await task.grader.grade(inst, answering(inst.labels.map((l) => !l)), { seed: 1 });
    for (const address of inst.addresses) expect(outcome.feedback).not.toContain(address);
  });
});
