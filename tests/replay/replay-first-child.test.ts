/**
 * A run that shows attempts sends every child a list, the first child's empty one included,
 * and the seed acts on a list being there (with one, it submits an untried move when no draft
 * beat the parent). The record keeps only a non-empty list, so the replay must send the empty
 * one too: the run below (seed 4, the ssh:// test's run) has exactly such a first child.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { readRun } from "../../harness/src/archive/index.js";
import { startRun } from "../../harness/src/evolution/index.js";
import { replayLineage } from "../../harness/src/replay/index.js";
import { memorySink } from "../evolution/run-helpers.js";
import { memoryEngine } from "../support/memory-engine.js";

let out = "";
afterAll(async () => {
  if (out !== "") await rm(out, { recursive: true, force: true });
});

it("replays a first child that was shown an empty list of attempts as it was made", async () => {
  const env = await memoryEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-replay-first-"));
  await startRun({ generations: 1, workers: 1, seed: 4, out, runId: "first" }, { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session });
  const runDir = join(out, "first");
  const child = (await readRun(runDir)).generations.find((g) => g.id === "g0001");
  // The case this test is about: no sibling to list, and a move made all the same.
  expect(child?.attempts).toBeUndefined();
  expect(child?.changedFiles.length ?? 0).toBeGreaterThan(0);
  const report = await replayLineage({ runDir, generation: "g0001", engine: env.engine, session: env.session });
  for (const check of report.selfModify) expect(check, check.detail).toMatchObject({ same: true });
}, 300_000);
