/**
 * Duplicates in a real run (`startRun`, the in-memory engine, sec-sum): the test agent toggles a
 * marker line, so from the second child on every child's tree is byte for byte an earlier
 * generation's. Such a child is recorded as a duplicate of the first generation with that
 * tree, without being checked or evaluated again; it is never a parent; the views say so.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents, type GenerationRecord } from "../../harness/src/archive/index.js";
import { formatSummary, startRun, type RunSummary } from "../../harness/src/evolution/index.js";
import { candidatesFromGenerations } from "../../harness/src/selection/index.js";
import { evolve } from "../inspect/cli-harness.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { memorySink, readConsistentRun } from "./run-helpers.js";

const AGENT = new URL("./fixtures/toggle-agent/", import.meta.url).pathname;
const TASK = new URL("../security/fixtures/sec-sum/", import.meta.url).pathname;
const RUN_ID = "duplicates-e2e";

let env: TestEngine;
let out: string;
let summary: RunSummary;
let generations: GenerationRecord[];
const sink = memorySink();

beforeAll(async () => {
  env = await memoryEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-duplicates-"));
  summary = await startRun(
    { task: TASK, agent: AGENT, generations: 4, workers: 1, seed: 2, out, runId: RUN_ID, evaluations: 0 },
    { sink, signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session },
  );
  const read = await readConsistentRun(join(out, RUN_ID));
  expect(read.problems).toEqual([]);
  generations = read.generations;
}, 240_000);
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("duplicate children", () => {
  it("records a child whose tree an earlier generation has as its duplicate, not judged again", async () => {
    const byId = new Map(generations.map((g) => [g.id, g]));
    const [seed, first, ...later] = generations as [GenerationRecord, GenerationRecord, ...GenerationRecord[]];
    expect(first.status.kind).toBe("valid");
    expect(first.snapshotHash).not.toBe(seed.snapshotHash);
    expect(later).toHaveLength(3);
    const events = (await readEvents(join(out, RUN_ID))).events;
    for (const g of later) {
      // Its parent is the seed or the first child, so its tree is the other one's.
      const expected = g.parent === "g0000" ? first : seed;
      expect(g.status).toEqual({ kind: "duplicate", of: expected.id });
      expect(g.snapshotHash).toBe(expected.snapshotHash);
      expect(g.evaluation).toBeNull();
      expect(g.scores).toEqual({ visible: null, heldout: null, stage1: null });
      expect(g.timings.evaluate).toBeUndefined();
      expect(g.changedFiles.length).toBeGreaterThan(0);
      expect(byId.get(g.status.kind === "duplicate" ? g.status.of : "")?.status.kind).toBe("valid");
      // Neither checked nor evaluated: no such event names it.
      expect(events.filter((e) => "generation" in e && e.generation === g.id && ["checking", "validated", "evaluated"].includes(e.type))).toEqual([]);
      expect(events).toContainEqual(expect.objectContaining({ type: "recorded", generation: g.id, status: "duplicate" }));
    }
  });

  it("never selects a duplicate as a parent, but counts it as its parent's child", () => {
    const candidates = candidatesFromGenerations(generations);
    expect(candidates.filter((c) => c.valid).map((c) => c.id)).toEqual(["g0000", "g0001"]);
    const children = (id: string): number => generations.filter((g) => g.parent === id).length;
    for (const id of ["g0000", "g0001"]) expect(candidates.find((c) => c.id === id)?.children).toBe(children(id));
    for (const g of generations.slice(2)) expect(["g0000", "g0001"]).toContain(g.parent);
  });

  it("says so in the summary, the progress lines, tree and show", async () => {
    expect(summary).toMatchObject({ children: 4, valid: 1, invalid: 0, duplicates: 3 });
    expect(formatSummary(summary)[0]).toMatch(/4\/4 children \(1 valid, 0 invalid, 3 duplicates\)/);
    expect(sink.text()).toMatch(/g0002 <- g000[01] \[2\/4\] duplicate of g000[01]: the same tree, not evaluated again/);
    const tree = await evolve("tree", RUN_ID, "--out", out);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toMatch(/g0002 .*DUPLICATE of g000[01] \(same tree, not evaluated again\)/);
    expect(tree.stdout).toMatch(/5 generations, 0 invalid, 3 duplicates; best/);
    const show = await evolve("show", RUN_ID, "g0003", "--out", out);
    expect(show.stdout).toMatch(/^g0003 {2}duplicate of g000[01]/);
    expect(show.stdout).toMatch(/the same tree as g000[01], byte for byte: not checked or evaluated again, never a parent/);
    expect(show.stdout).toMatch(/ {2}g000[01]: valid, visible 1\.0000, held-out 1\.0000/);
  });
});
