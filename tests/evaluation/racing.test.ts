/**
 * Racing evaluation against the real engine: a child that cannot reach its parent stops
 * early (by the certain bound, or by Serfling's), says how many instances it got and why, gets
 * no held-out split when the rule says so, and has no whole visible score; a child as good as
 * its parent runs whole; one solve session serves the whole visible race. With the import gate
 * deferred to the first session (evaluate-imported.ts), that one raced session also loads the
 * whole agent first, and the held-out split still gets a container of its own.
 */
import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { evaluateCandidate, evaluateImported, raceOrder, type Task } from "../../harness/src/evaluation/index.js";
import { countingEngine, importGateOf, scoresOf } from "../../harness/src/evolution/index.js";
import { visibleComplete, type EvaluationResult } from "../../harness/src/results/index.js";
import { testEngine } from "../support/test-engine.js";
import { writeBuild } from "./emit-seed.js";

const build = await writeBuild({ "task/index.js": "export async function solve(input) { return input.id; }" });
/** The same task agent with a meta agent: a whole agent, as the import gate wants it. */
const whole = await writeBuild({ "task/index.js": "export async function solve(input) { return input.id; }", "meta/index.js": "export async function improve() { return { summary: '' }; }" });
afterAll(async () => Promise.all([build, whole].map((dir) => rm(dir, { recursive: true, force: true }))));

/** A task whose grader scores each instance its `s`, after a real call into the candidate. */
function task(visible: number[], heldout: number[] = [1, 1, 1]): Task {
  const Instance = z.object({ id: z.string(), s: z.number() });
  return {
    dir: "/nowhere",
    manifest: { name: "race-fixture", description: "scores are fixed per instance", metric: "s", direction: "maximize", instanceTimeoutMs: 10_000, evaluationTimeoutMs: 60_000, stages: { stage1Size: 2, threshold: 0 }, repeats: 1 },
    visible: visible.map((s, i) => ({ id: `v${String(i).padStart(2, "0")}`, s })),
    heldout: heldout.map((s, i) => ({ id: `h${i}`, s })),
    grader: {
      instanceSchema: Instance,
      async grade(instance, solve) {
        const reply = await solve({ id: instance.id });
        const { s } = Instance.parse(instance);
        return reply.ok ? { score: s, value: s, feedback: "" } : { score: 0, value: null, feedback: "no answer" };
      },
    },
    oracle: null,
  };
}

const RACE = { delta: 0.05, bound: "hoeffding-serfling" } as const;

async function race(visible: number[], parentScore: number) {
  const { engine, image, session } = await testEngine();
  const counted = countingEngine(engine);
  const result = await evaluateCandidate({
    engine: counted.engine, image, task: task(visible), buildDir: build, labels: { session, phase: "test" }, seed: 3,
    heldout: true,
    heldoutUnless: (v) => (v.complete ? null : "its visible evaluation stopped early"),
    race: { settings: RACE, parentScore },
  });
  return { result, containers: counted.started() };
}

describe("racing evaluation", () => {
  it("stops a child that cannot reach its parent as soon as the bound says so, and records why", async () => {
    // 40 instances at 0.2 against a parent at 0.9: after 2 + 6 instances even all ones left could not reach 0.9.
    const { result, containers } = await race(Array(40).fill(0.2), 0.9);
    expect(result.coverage).toEqual({ evaluated: 8, of: 40 });
    expect(result.race).toMatchObject({ stop: "below_parent", target: 0.9, confidence: 0.95 });
    expect(result.race?.upper).toBeLessThan(0.9);
    expect(result.stages.map((s) => [s.stage, s.instances.length])).toEqual([["stage1", 2], ["visible", 6]]);
    expect(result.heldoutScore).toBeNull();
    expect(result.heldoutSkipped).toBe("its visible evaluation stopped early");
    // Partly evaluated: its mean is in the stages, never where whole scores are compared.
    expect(visibleComplete(result)).toBe(false);
    expect(result.visibleScore).toBeCloseTo(0.2, 12);
    expect(scoresOf(result).visible).toBeNull();
    expect(containers).toBe(1);
  });

  it("stops by Serfling's bound when the certain one would still let it through", async () => {
    // Against 0.6: after 2 + 14 instances at 0.2 every-one-left still reaches 0.68, but Serfling's bound is about 0.5.
    const { result } = await race(Array(40).fill(0.2), 0.6);
    expect(result.coverage).toEqual({ evaluated: 16, of: 40 });
    expect(result.race?.stop).toBe("below_parent");
    expect(result.race?.upper).toBeLessThan(0.6);
    expect((0.2 * 16 + 24) / 40).toBeGreaterThan(0.6);
  });

  it("runs a child as good as its parent whole, then its held-out split, in one visible session", async () => {
    const { result, containers } = await race(Array(40).fill(0.9), 0.9);
    expect(result.coverage).toEqual({ evaluated: 40, of: 40 });
    expect(result.race?.stop).toBe("complete");
    expect(visibleComplete(result)).toBe(true);
    expect(scoresOf(result).visible).toBeCloseTo(0.9, 12);
    expect(result.heldoutScore).toBe(1);
    expect(result.heldoutSkipped).toBeUndefined();
    expect(containers).toBe(2);
    // The rest of the split ran in the run's seeded order, not the file's.
    const order = result.stages.find((s) => s.stage === "visible")?.instances.map((i) => i.id) ?? [];
    expect(order).toHaveLength(38);
    expect(order).not.toEqual([...order].sort());
  });

  it("with the import deferred, loads the whole agent in the one raced session; the held-out split gets its own", async () => {
    const { engine, image, session } = await testEngine();
    const counted = countingEngine(engine);
    const phases: string[] = [];
    const stop = engine.watch((e) => {
      if (e.type === "placed" && e.labels.session === session && e.labels.phase?.startsWith("raced-")) phases.push(e.labels.phase);
    });
    try {
      const options = { engine: counted.engine, image, task: task(Array(12).fill(0.9)), buildDir: whole, labels: { session, phase: "raced" }, seed: 3, heldout: true, race: { settings: RACE, parentScore: 0.9 } };
      const imported = await evaluateImported(options, importGateOf({ importTimeoutMs: 10_000 }, whole));
      expect(imported.failure).toBeNull();
      expect(imported.evaluation?.coverage).toEqual({ evaluated: 12, of: 12 });
      expect(imported.evaluation?.heldoutScore).toBe(1);
      expect(counted.started()).toBe(2);
      expect(phases).toEqual(["raced-visible", "raced-heldout"]);
      // Without a meta agent the load fails the gate, and nothing is evaluated.
      const half = await evaluateImported({ ...options, buildDir: build }, importGateOf({ importTimeoutMs: 10_000 }, build));
      expect(half.evaluation).toBeNull();
      expect(half.failure).toMatchObject({ stage: "import" });
      expect(counted.started()).toBe(3);
    } finally {
      stop();
    }
  });

  it("stops below the task's bar when that is higher than the parent's score", async () => {
    const { engine, image, session } = await testEngine();
    const t = task([0, 0, 0, 0]);
    const result = await evaluateCandidate({
      engine, image, task: { ...t, manifest: { ...t.manifest, stages: { stage1Size: 2, threshold: 0.6 } } }, buildDir: build, labels: { session, phase: "test" }, seed: 3,
      race: { settings: RACE, parentScore: 0.3 },
    });
    expect(result.race).toMatchObject({ stop: "below_bar", target: 0.6 });
    expect(result.coverage).toEqual({ evaluated: 2, of: 4 });
  });

  it("reads a child's race off a whole run of the same build in race order, with no visible container; one that would stop is raced afresh", async () => {
    const { engine, image, session } = await testEngine();
    const scores = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? 0.5 : 1));
    const t = task(scores);
    const base = { image, task: t, buildDir: build, labels: { session, phase: "test" }, seed: 3 };
    // The draft's run: every visible instance, in the race's order, in one session.
    const drafted = countingEngine(engine);
    const whole = await evaluateCandidate({ ...base, engine: drafted.engine, subset: raceOrder(t.visible, 2, 3) });
    expect(drafted.started()).toBe(1);
    const run = { result: whole.stages[0]!, computeMs: whole.computeMs };
    const strip = (r: EvaluationResult) => ({ ...r, durationMs: 0, computeMs: 0, visibleFromDraft: undefined, stages: r.stages.map((st) => ({ ...st, durationMs: 0, stderr: "", instances: st.instances.map((i) => ({ ...i, durationMs: 0 })) })) });

    const raceAgainst = async (parentScore: number, visibleDone?: { run: typeof run; call: number }) => {
      const counted = countingEngine(engine);
      const result = await evaluateCandidate({ ...base, engine: counted.engine, heldout: true, heldoutUnless: (v) => (v.complete ? null : "its visible evaluation stopped early"), race: { settings: RACE, parentScore }, ...(visibleDone === undefined ? {} : { visibleDone }) });
      return { result, containers: counted.started() };
    };
    const read = await raceAgainst(0.8, { run, call: 2 });
    const fresh = await raceAgainst(0.8);
    expect(read.result.visibleFromDraft).toBe(2);
    expect(read.containers).toBe(1);
    expect(fresh.containers).toBe(2);
    expect(read.result.race?.stop).toBe("complete");
    expect(strip(read.result)).toEqual(strip(fresh.result));

    // Against a parent it cannot reach the race would stop early: a stopped race is one the child ran.
    const stopped = await raceAgainst(0.99, { run, call: 2 });
    expect(stopped.result.visibleFromDraft).toBeUndefined();
    expect(stopped.result.race?.stop).toBe("below_parent");
    expect(stopped.containers).toBe(1);
    // A run in another order (a listed subset as the agent gave it) is never read off.
    const listed = await evaluateCandidate({ ...base, engine, subset: t.visible });
    const other = await raceAgainst(0.8, { run: { result: listed.stages[0]!, computeMs: listed.computeMs }, call: 3 });
    expect(other.result.visibleFromDraft).toBeUndefined();
    expect(other.containers).toBe(2);
  });
});
