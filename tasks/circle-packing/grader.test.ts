import { describe, expect, it } from "vitest";
import { loadTask, type SolveCall, type Task } from "../../harness/src/evaluation/index.js";

const task: Task = await loadTask(new URL(".", import.meta.url).pathname);
const instance = task.visible.find((i) => i.id === "visible-n12")!;

function answering(value: unknown): SolveCall {
  return async () => ({ ok: true, value, durationMs: 1 });
}

/** A feasible but poor packing of n circles: a 4x3 grid with radius 1/8. */
function grid12(): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let i = 0; i < 12; i++) out.push([0.125 + 0.25 * (i % 4), 1 / 6 + (1 / 3) * Math.floor(i / 4), 0.125]);
  return out;
}

describe("circle-packing grader", () => {
  it("scores a feasible packing by sum / reference and returns the circles", async () => {
    const outcome = await task.grader.grade(instance, answering({ circles: grid12() }), { seed: 1 });
    expect(outcome.value).toBeCloseTo(1.5, 12);
    expect(outcome.score).toBeCloseTo(1.5 / 1.765793, 6);
    expect(outcome.artifact).toEqual({ n: 12, circles: grid12() });
  });

  const hostile: [string, unknown, RegExp][] = [
    ["NaN coordinate", { circles: grid12().map((c, i) => (i === 3 ? [Number.NaN, c[1], c[2]] : c)) }, /circle 3/],
    ["Infinity radius", { circles: grid12().map((c, i) => (i === 0 ? [c[0], c[1], Infinity] : c)) }, /circle 0/],
    ["negative radius", { circles: grid12().map((c, i) => (i === 5 ? [c[0], c[1], -0.01] : c)) }, /negative radius/],
    ["overlap", { circles: grid12().map((c, i) => (i === 1 ? [c[0] - 0.01, c[1], c[2]] : c)) }, /overlap: circles 0 and 1/],
    ["outside the square", { circles: grid12().map((c, i) => (i === 0 ? [0.1, c[1], c[2]] : c)) }, /containment: circle 0/],
    ["wrong element types", { circles: grid12().map((c, i) => (i === 2 ? ["0.1", 0.1, 0.1] : c)) }, /circle 2 must be/],
    ["too few circles", { circles: grid12().slice(1) }, /expected 12 circles, got 11/],
    ["10 MB array", { circles: new Array(1_400_000).fill([0.5, 0.5, 0.1]) }, /expected 12 circles/],
    ["missing field", { packing: grid12() }, /no `circles` field/],
    ["not an object", "circles", /must be an object/],
    ["null", null, /must be an object/],
    ["circles not an array", { circles: { 0: [0.5, 0.5, 0.1] } }, /must be an array/],
  ];
  for (const [name, value, reason] of hostile)
    it(`scores 0 with the reason for ${name}`, async () => {
      const outcome = await task.grader.grade(instance, answering(value), { seed: 1 });
      expect(outcome.score).toBe(0);
      expect(outcome.value).toBeNull();
      expect(outcome.feedback).toMatch(reason);
    });

  it("tolerates 1e-10 violations but not 1e-8", async () => {
    const touching = grid12().map((c, i) => (i === 0 ? [c[0], c[1], c[2] + 1e-10] : c));
    expect((await task.grader.grade(instance, answering({ circles: touching }), { seed: 1 })).score).toBeGreaterThan(0);
    const over = grid12().map((c, i) => (i === 0 ? [c[0], c[1], c[2] + 1e-8] : c));
    expect((await task.grader.grade(instance, answering({ circles: over }), { seed: 1 })).score).toBe(0);
  });

  it("reports a failed call as no answer", async () => {
    const outcome = await task.grader.grade(
      instance,
      async () => ({ ok: false, kind: "timeout", reason: "no answer in 20000 ms", durationMs: 20000 }),
      { seed: 1 },
    );
    expect(outcome).toMatchObject({ score: 0, value: null });
    expect(outcome.feedback).toMatch(/timeout/);
  });

  it("uses 2.635 (AlphaEvolve) as the n=26 reference", () => {
    expect(task.visible[0]).toMatchObject({ n: 26, reference: 2.635 });
  });
});
