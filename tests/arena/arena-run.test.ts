/**
 * `evolve run --arena`, offline, on the in-memory engine: a duel on email-validation interrupted in
 * the code phase of its second round and resumed; the archive's rounds and test generations
 * read back through zod; the held-out split untouched; the views and the report show it.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArena } from "../../harness/src/arena/index.js";
import { readEvents, readRunRecord } from "../../harness/src/archive/index.js";
import { loadTask } from "../../harness/src/evaluation/index.js";
import { resumeRun, startRun, type ProgressSink, type RunSummary } from "../../harness/src/evolution/index.js";
import { memorySink, readConsistentRun } from "../evolution/run-helpers.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { evolve } from "../inspect/cli-harness.js";

let env: TestEngine;
let out: string;
let first: RunSummary;
let resumed: RunSummary;
const RUN = "arena-duel";

/** A sink that aborts the run as soon as round 2's tests have landed (its code phase is then under way). */
function abortingSink(controller: AbortController): ProgressSink & { text(): string } {
  const inner = memorySink();
  return {
    isTTY: false,
    write(text) {
      inner.write(text);
      if (/round 2: t\d{4}/.test(inner.text()) && !controller.signal.aborted) controller.abort();
    },
    text: () => inner.text(),
  };
}

beforeAll(async () => {
  env = await memoryEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-arena-"));
  const controller = new AbortController();
  first = await startRun(
    { task: "email-validation", arena: { rounds: 3 }, workers: 2, seed: 1, out, runId: RUN, evaluations: 1 },
    { sink: abortingSink(controller), signal: controller.signal, env: {}, engine: env.engine, session: env.session },
  );
  resumed = await resumeRun(RUN, { root: out, sink: memorySink(), signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session });
}, 600_000);
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("an arena duel, interrupted and resumed", () => {
  it("stops in round 2's code phase and resumes to three complete rounds, nothing redone twice", async () => {
    expect(first.end).toBe("interrupted");
    expect(resumed.end).toBe("finished");
    const runDir = join(out, RUN);
    const arena = await readArena(runDir);
    expect(arena.problems).toEqual([]);
    expect(arena.rounds.map((r) => [r.round, r.phase])).toEqual([[1, "complete"], [2, "complete"], [3, "complete"]]);
    // One test generation per round: the seed's tester, then one child each round; none abandoned.
    expect(arena.testers.map((t) => t.id)).toEqual(["t0000", "t0001", "t0002"]);
    expect(arena.rounds.map((r) => r.testers)).toEqual([["t0000"], ["t0001"], ["t0002"]]);
    expect(arena.testers[1]?.parent).toBe("t0000");
    // One code child per round.
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);
    expect(generations.filter((g) => g.parent !== null)).toHaveLength(3);
    expect(arena.rounds.flatMap((r) => r.children)).toEqual(generations.filter((g) => g.parent !== null).map((g) => g.id));
    const run = await readRunRecord(runDir);
    expect(run.ok && run.value.config.arena).toMatchObject({ mode: "duel", rounds: 3, codePopulation: 1, testPopulation: 1 });
    const events = (await readEvents(runDir)).events;
    expect(events.filter((e) => e.type === "arena" && e.phase === "complete")).toHaveLength(3);
  });

  it("admits only tests that broke the population, judged by the oracle, and keeps the held-out split fixed", async () => {
    const runDir = join(out, RUN);
    const arena = await readArena(runDir);
    const task = await loadTask(join(import.meta.dirname, "../../tasks/email-validation"));
    const round1 = arena.rounds[0]!;
    // The seed's code leaves rule switches off and the seed's tester probes those rules: something must land.
    expect(round1.admitted.length).toBeGreaterThan(0);
    for (const id of round1.admitted) {
      const test = round1.suite.find((t) => t.id === id)!;
      // The label is the oracle's (the task's reference rules), whatever the tester claimed.
      const instance = test.instance as unknown as { addresses: string[]; labels: boolean[] };
      expect(instance.addresses).toHaveLength(1);
      const failedBy = round1.codePopulation.filter((c) => (round1.matrix[c]?.[id]?.score ?? 1) < 1);
      expect(failedBy.length).toBeGreaterThan(0);
    }
    const seedTester = arena.testers[0]!;
    expect(seedTester.admitted).toBe(seedTester.proposals.filter((p) => p.outcome === "admitted").length);
    // Children ran the suite of their round as part of their visible evaluation; the held-out split is the task's own.
    const { generations } = await readConsistentRun(runDir);
    for (const round of arena.rounds) {
      for (const id of round.children) {
        const child = generations.find((g) => g.id === id)!;
        if (child.status.kind !== "valid") continue;
        const visibleIds = child.evaluation!.stages.filter((s) => s.stage !== "heldout").flatMap((s) => s.instances.map((i) => i.id));
        if (child.evaluation!.passedStage1) expect(visibleIds).toEqual(expect.arrayContaining(round.suite.map((t) => t.id)));
        const heldout = child.evaluation!.stages.find((s) => s.stage === "heldout")!;
        expect(heldout.instances.map((i) => i.id)).toEqual(task.heldout.map((i) => i.id));
      }
    }
    expect(arena.rounds.every((r) => r.suite.length <= 16)).toBe(true);
  });

  it("shows the arms race in evolve show, evolve tree and the report", async () => {
    const shown = await evolve("show", RUN, "arena", "--out", out);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/round +proposed +admitted/);
    expect(shown.stdout).toMatch(/^ +3 /m);
    const tester = await evolve("show", RUN, "t0001", "--out", out);
    expect(tester.stdout).toMatch(/t0001 +test generation of round 2/);
    expect(tester.stdout).toMatch(/admitted +\d+ of \d+ judged/);
    const tree = await evolve("tree", RUN, "--out", out);
    expect(tree.stdout).toMatch(/arena: 3 rounds, 3 test generations/);
    const html = await readFile(join(out, RUN, "report.html"), "utf8");
    expect(html).toContain('id="arena-section"');
    expect(html).toMatch(/<polyline points="[\d., ]+" fill="none" stroke="#c0392b"/);
  });

  it("replays a code child on its round's suite, and branches a new arena from it with --from", async () => {
    const { generations } = await readConsistentRun(join(out, RUN));
    const child = generations.filter((g) => g.parent !== null && g.status.kind === "valid").at(-1);
    expect(child, "a valid code child").toBeDefined();
    const replayed = await evolve("replay", RUN, child!.id, "--out", out);
    expect(replayed.code, replayed.stdout).toBe(0);
    expect(replayed.stdout).toMatch(/verdict: reproduced/);
    const branched = await evolve("run", "--arena", "--rounds", "1", "--from", `${RUN}/${child!.id}`, "--out", out);
    expect(branched.code, `${branched.stdout}\n${branched.stderr}`).toBe(0);
    // The run's lines go to the terminal, not to the captured output: the new run is the folder that was not there.
    const runs = (await readdir(out)).filter((name) => name !== RUN);
    expect(runs).toHaveLength(1);
    const branchDir = join(out, runs[0]!);
    const arena = await readArena(branchDir);
    expect(arena.rounds.map((r) => r.phase)).toEqual(["complete"]);
    const run = await readRunRecord(branchDir);
    expect(run.ok && run.value.from).toMatchObject({ run: RUN, generation: child!.id });
  }, 300_000);

  it("leaves no container behind", async () => {
    expect(await env.engine.countManaged(env.session)).toEqual({ containers: 0, volumes: 0 });
  });
});
