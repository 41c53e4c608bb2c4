/**
 * `evolve show` and the report name the stages as the headline reads them: the headline's
 * "visible" is the mean over every visible instance (stages 1 and 2), so the stage of the
 * rest of the visible instances is "stage 2", never "visible" under a different score.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArchiveWriter } from "../../harness/src/archive/index.js";
import { buildReportData } from "../../harness/src/report/report-data.js";
import { readRun } from "../../harness/src/archive/index.js";
import { evolve } from "./cli-harness.js";
import { evaluated, evaluationResult, generationRecord, instanceResult, runRecord, stageResult } from "../support/records.js";

let root: string;
let runDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "evolve-show-labels-"));
  const writer = await ArchiveWriter.create(root, runRecord({ id: "labels" }));
  const evaluation = evaluationResult([
    stageResult("stage1", [instanceResult({ id: "v1", score: 1 }), instanceResult({ id: "v2", score: 0.5 })]),
    stageResult("visible", [instanceResult({ id: "v3", score: 0, error: "timeout" })]),
    stageResult("heldout", [instanceResult({ id: "h1", split: "heldout", score: 0.25 })]),
  ]);
  await writer.recordGeneration(generationRecord({ id: writer.allocateGenerationId(), ...evaluated(evaluation), snapshotHash: null }), { snapshotDir: null, patch: "", transcript: [], logs: {} });
  runDir = writer.runDir;
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("stage labels", () => {
  it("show: stage 1, stage 2 and held-out under a headline whose visible covers stages 1 and 2", async () => {
    const r = await evolve("show", runDir, "g0000");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("scores    visible  held-out  stage 1   (visible: every visible instance, stages 1 and 2)");
    expect(r.stdout).toMatch(/^ {10}0\.5000 {3}0\.2500 {4}0\.7500$/m);
    expect(r.stdout).toMatch(/^ {2}stage 1 {2}score 0\.7500 {2}2 instances, 0 failed/m);
    expect(r.stdout).toMatch(/^ {2}stage 2 {2}score 0\.0000 {2}1 instance, 1 failed/m);
    expect(r.stdout).toMatch(/^ {2}held-out score 0\.2500 {2}1 instance, 0 failed/m);
    expect(r.stdout).not.toMatch(/^ {2}visible /m);
  });

  it("the report's node panel uses the same labels", async () => {
    const { data } = buildReportData(await readRun(runDir), new Map(), new Date());
    expect(data.nodes[0]?.stages.map((s) => s.label)).toEqual(["stage 1", "stage 2", "held-out"]);
  });
});
