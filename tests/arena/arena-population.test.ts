/**
 * `evolve run --arena` with populations (issue 18's 4b), offline, on the in-memory engine: two code
 * candidates and two testers, the populations keeping only their best every second round.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArena, type ArenaContents } from "../../harness/src/arena/index.js";
import { startRun, type RunSummary } from "../../harness/src/evolution/index.js";
import { memorySink, readConsistentRun } from "../evolution/run-helpers.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";

let env: TestEngine;
let out: string;
let summary: RunSummary;
let arena: ArenaContents;
const RUN = "arena-populations";

beforeAll(async () => {
  env = await memoryEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-arena-pop-"));
  summary = await startRun(
    { task: "email-validation", arena: { rounds: 2, codePopulation: 2, testPopulation: 2, tournamentEvery: 2 }, workers: 2, seed: 2, out, runId: RUN, evaluations: 0 },
    { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session },
  );
  arena = await readArena(join(out, RUN));
}, 600_000);
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("an arena with populations", () => {
  it("makes two code children and two test generations a round, from the populations", async () => {
    expect(summary.end).toBe("finished");
    expect(arena.problems).toEqual([]);
    expect(arena.rounds.map((r) => r.phase)).toEqual(["complete", "complete"]);
    // Round 1: the seed's tester alone; round 2: two children of the test population.
    expect(arena.rounds.map((r) => r.testers)).toEqual([["t0000"], ["t0001", "t0002"]]);
    for (const t of arena.testers.slice(1)) expect(t.parent).toBe("t0000");
    const { generations, problems } = await readConsistentRun(join(out, RUN));
    expect(problems).toEqual([]);
    expect(arena.rounds.map((r) => r.children.length)).toEqual([2, 2]);
    const codeParents = new Set(arena.rounds[0]!.codePopulation);
    for (const id of arena.rounds[1]!.children) expect(codeParents.has(generations.find((g) => g.id === id)!.parent!)).toBe(true);
  });

  it("keeps only the best of each population at the tournament round, within their sizes", () => {
    const last = arena.rounds.at(-1)!;
    expect(last.codePopulation.length).toBeLessThanOrEqual(2);
    expect(last.testPopulation.length).toBeLessThanOrEqual(2);
    // The test population kept the testers that landed the most tests, ties to the earlier.
    const admitted = (id: string): number => arena.testers.find((t) => t.id === id)!.admitted;
    const others = arena.testers.filter((t) => t.status.kind === "valid" && !last.testPopulation.includes(t.id));
    for (const t of others) for (const kept of last.testPopulation) expect(admitted(kept)).toBeGreaterThanOrEqual(t.admitted);
    // The best code candidate of the round is a member of the population it leaves.
    expect(last.codePopulation).toContain(last.standing.afterCode!.best);
  });

  it("leaves no container behind", async () => {
    expect(await env.engine.countManaged(env.session)).toEqual({ containers: 0, volumes: 0 });
  });
});
