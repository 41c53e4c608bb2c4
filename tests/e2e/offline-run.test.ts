/**
 * End to end, offline (no LLM): `startRun` with the seed agent on the default task, a few
 * generations with two workers, in real containers. The archive must hold the seed and every
 * attempted child, read back through zod, with a consistent lineage.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { getEventListeners } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents, readOwnTree, readRunRecord, rebuildSnapshot } from "../../harness/src/archive/index.js";
import { DEFAULT_TASK, startRun, type RunSummary } from "../../harness/src/evolution/index.js";
import { memorySink, readConsistentRun } from "../evolution/run-helpers.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";

let env: TestEngine;
let out: string;
let summary: RunSummary;
const sink = memorySink();
// The caller's Ctrl-C signal: a caller may start many runs under one.
const signal = new AbortController().signal;

beforeAll(async () => {
  env = await testEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-e2e-offline-"));
  summary = await startRun(
    { generations: 3, workers: 2, seed: 7, out, runId: "offline-e2e" },
    { sink, signal, env: {}, engine: env.engine, session: env.session },
  );
}, 240_000);
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("evolve run, offline, end to end", () => {
  it("leaves no listener on the caller's abort signal once it has ended", () => {
    expect(getEventListeners(signal, "abort")).toEqual([]);
  });

  it("records the seed and every attempted child, consistently", async () => {
    const runDir = join(out, "offline-e2e");
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);
    expect(generations.map((g) => g.id)).toEqual(["g0000", "g0001", "g0002", "g0003"]);
    const seed = generations[0];
    expect(seed?.parent).toBeNull();
    expect(seed?.status.kind).toBe("valid");
    const children = generations.slice(1);
    for (const child of children) {
      expect(child.parent).not.toBeNull();
      expect(child.depth).toBeGreaterThan(0);
      expect(child.timings.selfModify).toBeGreaterThan(0);
      expect(child.seed).not.toBe(seed?.seed);
    }
    const valid = children.filter((c) => c.status.kind === "valid");
    expect(valid.length).toBeGreaterThanOrEqual(1);
    for (const v of valid) {
      // Raced: a whole child is among the five best here, so its held-out split is scored; one
      // stopped early has no whole visible score and no held-out split.
      if (v.evaluation?.race?.stop === "complete") {
        expect(v.evaluation.stages.map((s) => s.stage)).toContain("heldout");
        expect(v.scores.visible).not.toBeNull();
        expect(v.evaluation.coverage).toEqual({ evaluated: 3, of: 3 });
      } else {
        expect(v.evaluation?.race?.stop).toMatch(/^below_/);
        expect(v.scores.visible).toBeNull();
        expect(v.evaluation?.heldoutSkipped).toBeDefined();
      }
      expect(v.changedFiles.length).toBeGreaterThan(0);
      // The patch chain from the root rebuilds the snapshot the archive holds.
      const rebuilt = await rebuildSnapshot(runDir, generations, v.id);
      expect(rebuilt.ok).toBe(true);
      if (rebuilt.ok) expect(rebuilt.tree).toEqual(await readOwnTree(join(runDir, v.id, "snapshot")));
      expect(await readFile(join(runDir, v.id, "logs", "self-modify.stderr"), "utf8")).not.toBe("");
    }
    const run = await readRunRecord(runDir);
    if (!run.ok) throw new Error(`run.json does not parse: ${run.problem.reason}`);
    expect(run.value.status).toBe("finished");
    expect(run.value.config.task.name).toBe(DEFAULT_TASK);
    // The default economy is recorded, so a resume does as this run did.
    expect(run.value.config.economy).toEqual({ attempts: 12, discountBarren: true, racing: { delta: 0.05, bound: "hoeffding-serfling" }, heldout: { kind: "top", k: 5 } });
    // Attempts are generations recorded before the child was made.
    for (const child of children) for (const id of child.attempts ?? []) expect((generations.find((g) => g.id === id)?.createdAt ?? "9") < child.createdAt).toBe(true);
    // run.json keeps the selection RNG as it was after the last selection, so a resume draws on from there.
    const selections = (await readEvents(runDir)).events.filter((e) => e.type === "selected");
    expect(selections).toHaveLength(3);
    expect(run.value.rng).not.toBeNull();
    expect(run.value.rng).toEqual(selections.at(-1)?.rng);
  });

  it("summarises against the seed and leaves no container behind", async () => {
    expect(summary.end).toBe("finished");
    expect(summary.children).toBe(3);
    expect(summary.valid + summary.invalid).toBe(3);
    expect(summary.best).not.toBeNull();
    expect(summary.tokens).toBe(0);
    expect(sink.text()).toMatch(/best: g\d{4}/);
    expect(sink.text()).toMatch(/visible {2}\d\.\d{4} vs seed \d\.\d{4}/);
    expect(sink.text()).toContain(`archive: ${join(out, "offline-e2e")}`);
    expect(await env.engine.countManaged(env.session)).toEqual({ containers: 0, volumes: 0 });
  });
});
