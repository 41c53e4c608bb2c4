/**
 * ts-exercises: every exercise's tests agree with its reference solution (on the host: the
 * references are the task's own trusted code), the catalogue has the promised size and
 * spread, and the grader scores answers through real code-test containers: a reference
 * scores 1, a half-right answer its share, no code or a compile error 0 with the reason.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodeTester, loadTask, valuesMatch, type SolveReply, type Task } from "../../harness/src/evaluation/index.js";
import { decodeValue, encodeValue } from "../../sandbox/src/index.js";
import { testEngine, type TestEngine } from "../../tests/support/test-engine.js";
import { exerciseInput } from "./exercises/exercise.js";
import { EXERCISES } from "./exercises/index.js";

const DIR = import.meta.dirname;
let task: Task;
let t: TestEngine;

beforeAll(async () => {
  task = await loadTask(DIR);
  t = await testEngine();
});
afterAll(async () => {
  expect(await t.engine.countManaged(t.session)).toEqual({ containers: 0, volumes: 0 });
});

describe("the catalogue", () => {
  it("has at least 40 exercises across three difficulties, split visible / held-out with each difficulty on both sides", () => {
    expect(EXERCISES.size).toBeGreaterThanOrEqual(40);
    const ids = [...task.visible, ...task.heldout].map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(EXERCISES.keys()));
    for (const split of [task.visible, task.heldout]) {
      const levels = new Set(split.map((i) => EXERCISES.get(i.id)?.difficulty));
      expect(levels).toEqual(new Set(["easy", "medium", "hard"]));
    }
    expect(task.manifest.needsModel).toBe(true);
  });

  it("every test of every exercise agrees with its reference solution", async () => {
    const disagreements: string[] = [];
    for (const exercise of EXERCISES.values()) {
      const module = (await import(join(DIR, "reference", `${exercise.slug}.ts`))) as Record<string, unknown>;
      const fn = module[exercise.fn] as (...args: unknown[]) => unknown;
      for (const test of exercise.tests) {
        const encoded = encodeValue(fn(...structuredClone(test.args)), 1 << 20);
        const ok = encoded.ok && valuesMatch(decodeValue(encoded.value), decodeValue(test.expect as never), exercise.compare ?? "equal");
        if (!ok) disagreements.push(`${exercise.slug}: ${test.name}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("shows the task agent the statement, the signature and the examples, never a hidden test", () => {
    const exercise = EXERCISES.get("median");
    if (exercise === undefined) throw new Error("median is missing");
    const input = exerciseInput(exercise);
    expect(input.signature).toBe("export function median(xs: number[]): number | null");
    expect(input.examples).toEqual([
      { call: "median([3,1,2])", result: "2" },
      { call: "median([4,1,3,2])", result: "2.5" },
    ]);
    expect(JSON.stringify(input)).not.toContain("numeric sort, not text");
  });
});

describe("the grader, with real code-test containers", () => {
  const grade = async (id: string, answer: unknown) => {
    const instance = [...task.visible, ...task.heldout].find((i) => i.id === id);
    if (instance === undefined) throw new Error(`no instance ${id}`);
    const runTests = createCodeTester({ engine: t.engine, image: t.image, labels: { session: t.session, phase: "grade-exec" }, deadline: () => Date.now() + 600_000 });
    const solve = async (): Promise<SolveReply> => ({ ok: true, value: answer as never, durationMs: 1 });
    return task.grader.grade(instance, solve, { seed: 1, runTests });
  };

  it("scores a reference answer 1, and a half-right one its share of the tests", async () => {
    const reference = await readFile(join(DIR, "reference", "median.ts"), "utf8");
    // Right for odd counts only: an even count takes the upper middle value.
    const halfRight = "export function median(xs: number[]): number | null { if (xs.length === 0) return null; const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] ?? null; }";
    const [good, half] = await Promise.all([grade("median", { source: reference }), grade("median", halfRight)]);
    expect(good).toMatchObject({ score: 1, value: 1 });
    expect(good.feedback).toBe("7/7 tests passed");
    expect(half.score).toBeCloseTo(5 / 7, 9);
    expect(half.feedback).toBe(`5/7 tests passed; failing: "even count": got 3; "negatives": got -2`);
  });

  it("scores no code and a compile error 0, saying why", async () => {
    const [none, broken] = await Promise.all([
      grade("chunk", { source: "", note: "no model: this solver asks ctx.llm, and the run has none (offline)" }),
      grade("chunk", "export function chunks<T>(items: T[], size: number): T[][] { return [items]; }"),
    ]);
    expect(none).toMatchObject({ score: 0, value: null });
    expect(none.feedback).toContain("no code in the answer (the task agent says \"no model");
    expect(broken).toMatchObject({ score: 0, value: null });
    expect(broken.feedback).toContain("compile error: (the declared exports)");
    expect(broken.feedback).toContain("has no exported member named 'chunk'. Did you mean 'chunks'?");
  });
});
