/**
 * One short offline run on the in-memory engine, then: replay reproduces its lineage exactly,
 * a tampered patch file and a tampered score are caught, `run --from` continues from the
 * chosen generation, and the inspect commands read the real archive.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import { generationPaths, lineageOf, readPatch, readRun, readRunRecord } from "../../harness/src/archive/index.js";
import { startRun } from "../../harness/src/evolution/index.js";
import { replayLineage } from "../../harness/src/replay/index.js";
import { memorySink } from "../evolution/run-helpers.js";
import { evolve } from "../inspect/cli-harness.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";

const RUN = "replay-src";
let env: TestEngine;
let out: string;
let runDir: string;
let generations: GenerationRecord[];
let tip: GenerationRecord;

beforeAll(async () => {
  env = await memoryEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-replay-test-"));
  await startRun(
    { generations: 3, workers: 2, seed: 7, out, runId: RUN },
    { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session },
  );
  runDir = join(out, RUN);
  generations = (await readRun(runDir)).generations;
  // The deepest valid child: its lineage has the most self-modifications to replay.
  const valid = generations.filter((g) => g.parent !== null && g.status.kind === "valid").sort((a, b) => b.depth - a.depth);
  if (valid[0] === undefined) throw new Error("the offline run produced no valid child to replay");
  tip = valid[0];
}, 300_000);

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

// Replays re-run every self-modification on the path in fresh containers: minutes on a
// loaded 2-core machine, so these tests get a budget above the global default.
const REPLAY_TIMEOUT_MS = 300_000;

describe("evolve replay", { timeout: REPLAY_TIMEOUT_MS }, () => {
  it("reproduces an offline lineage exactly: snapshots, patches and scores", async () => {
    const steps: string[] = [];
    const report = await replayLineage({ runDir, generation: tip.id, engine: env.engine, session: env.session, onStep: (l) => steps.push(l) });
    expect(report.rebuild).toEqual({ ok: true });
    expect(report.lineage).toEqual(lineageOf(generations, tip.id));
    expect(report.selfModify.map((c) => c.generation)).toEqual(report.lineage.slice(1));
    for (const check of report.selfModify) expect(check, check.detail).toMatchObject({ same: true });
    expect(report.scores).toHaveLength(1);
    const [score] = report.scores;
    expect(score?.sameStatus).toBe(true);
    expect(score?.splits.find((s) => s.split === "visible")?.recorded).toBe(tip.scores.visible);
    expect(score?.splits.find((s) => s.split === "heldout")?.replayed).toBe(tip.scores.heldout);
    expect(report.verdict).toEqual({ kind: "reproduced" });
    expect(await env.engine.countManaged(env.session)).toEqual({ containers: 0, volumes: 0 });
  });

  it("detects a tampered patch file: the rebuild fails at that generation, exit non-zero", async () => {
    const copy = join(out, "tampered-patch");
    await cp(runDir, copy, { recursive: true });
    const patchPath = generationPaths(copy, tip.id).patch;
    const patch = await readPatch(copy, tip.id);
    const lines = patch.split("\n");
    const at = lines.findIndex((l) => l.startsWith("+") && !l.startsWith("+++"));
    lines[at] = `${lines[at]} // tampered`;
    await writeFile(patchPath, lines.join("\n"));
    const r = await evolve("replay", copy, tip.id);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`verdict: diverged at ${tip.id}: `));
    // The tampered patch still applies (one added line changed): the hash check is what catches it.
    expect(r.stdout).toMatch(/rebuilt tree hash [0-9a-f]{64} differs from the recorded [0-9a-f]{64}/);
  });

  it("detects a tampered score: the re-evaluation disagrees with the record, exit non-zero", async () => {
    const copy = join(out, "tampered-score");
    await cp(runDir, copy, { recursive: true });
    const recordPath = generationPaths(copy, tip.id).record;
    const record = JSON.parse(await readFile(recordPath, "utf8"));
    record.scores.visible = Math.max(0, record.scores.visible - 0.125);
    await writeFile(recordPath, JSON.stringify(record));
    const r = await evolve("replay", copy, tip.id);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`verdict: scores drifted by 0\\.12\\d+ at ${tip.id}`));
    expect(r.stdout).toMatch(/visible +\d\.\d{4} +\d\.\d{4} +\+1\.2\de-1/);
  });
});

describe("evolve run --from", { timeout: REPLAY_TIMEOUT_MS }, () => {
  it("starts a new run whose generation 0 is the chosen generation's agent, its lineage recorded", async () => {
    await startRun(
      { generations: 1, workers: 1, seed: 3, out, runId: "branch", from: `${RUN}/${tip.id}` },
      { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session },
    );
    const branchDir = join(out, "branch");
    const run = await readRunRecord(branchDir);
    expect(run.ok && run.value.from).toEqual({ run: RUN, generation: tip.id, lineage: lineageOf(generations, tip.id) });
    const branch = (await readRun(branchDir)).generations;
    expect(branch.map((g) => g.id)).toEqual(["g0000", "g0001"]);
    expect(branch[0]?.snapshotHash).toBe(tip.snapshotHash);
    expect(branch[1]?.parent).toBe("g0000");
    const ls = await evolve("ls", "--out", out);
    expect(ls.stdout.split("\n").find((l) => l.startsWith("branch"))).toContain(`from ${RUN}/${tip.id}`);
  });
});

describe("inspect commands on the real run", () => {
  it("tree, show, lineage, diff, cat and report read it", async () => {
    const tree = JSON.parse((await evolve("tree", RUN, "--out", out, "--json")).stdout);
    expect(tree.nodes.map((n: { id: string }) => n.id)).toEqual(generations.map((g) => g.id));
    const show = await evolve("show", RUN, tip.id, "--out", out);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`lineage   ${lineageOf(generations, tip.id).join(" → ")}`);
    const lineage = JSON.parse((await evolve("lineage", runDir, tip.id, "--json")).stdout);
    expect(lineage.lineage.at(-1).visible).toBe(tip.scores.visible);
    const diff = await evolve("diff", runDir, tip.id);
    expect(`${diff.stdout}\n`).toBe(await readPatch(runDir, tip.id));
    const changed = tip.changedFiles.find((f) => f.change !== "deleted")!;
    const cat = await evolve("cat", runDir, tip.id, changed.path);
    expect(`${cat.stdout}\n`).toBe(await readFile(join(generationPaths(runDir, tip.id).snapshot, changed.path), "utf8"));
    // The run wrote its report at the end; `evolve report` rewrites it.
    expect(await readFile(join(runDir, "report.html"), "utf8")).toMatch(/^<!doctype html>/);
    expect((await evolve("report", runDir)).code).toBe(0);
  });
});
