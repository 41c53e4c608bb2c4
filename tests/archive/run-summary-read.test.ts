/**
 * readRunSummary: every record of a run through the summary schema (archive/generation-summary.ts),
 * what `evolve ls` and `evolve show` read of a large run. The summary of each record is the
 * same as the whole record's fields; a record whose summary fields are corrupt is a problem
 * as with readRun; one corrupt only elsewhere is left to the readers of whole records.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ArchiveWriter, GenerationSummary, readRun, readRunSummary } from "../../harness/src/archive/index.js";
import { bestGeneration } from "../../harness/src/selection/index.js";
import { tempDir } from "./fixtures.js";
import { evaluated, evaluationResult, generationRecord, instanceResult, runRecord, scored, stageResult } from "../support/records.js";

const NO_FILES = { snapshotDir: null, patch: "", transcript: [], logs: {} } as const;

/** A run of four scored generations; `raced` adds a fifth whose race stopped after 1 of 4 visible instances, all passed. */
async function run(raced = false): Promise<string> {
  const root = await tempDir();
  const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
  const scores = [0.5, 0.9, 0.7, 0.9];
  for (const [i, visible] of scores.entries()) {
    const id = writer.allocateGenerationId();
    await writer.recordGeneration(generationRecord({ id, parent: i === 0 ? null : "g0000", depth: i === 0 ? 0 : 1, ...scored(visible) }), NO_FILES);
  }
  if (raced) {
    const partial = evaluationResult([stageResult("stage1", [instanceResult({ id: "i1", score: 1 })])], { coverage: { evaluated: 1, of: 4 } });
    await writer.recordGeneration(generationRecord({ id: writer.allocateGenerationId(), parent: "g0001", depth: 2, ...evaluated(partial) }), NO_FILES);
  }
  return join(root, "r1");
}

describe("reading a run's summaries", () => {
  it("gives each record's summary fields as readRun does, and the same best (never a child whose race stopped early)", async () => {
    const dir = await run(true);
    const whole = await readRun(dir);
    const summary = await readRunSummary(dir);
    expect(summary.run).toEqual(whole.run);
    expect(summary.problems).toEqual([]);
    expect(summary.generations).toEqual(whole.generations.map((g) => GenerationSummary.parse(g)));
    expect(Object.keys(summary.generations[1]!).sort()).toEqual(Object.keys(GenerationSummary.shape).filter((k) => k !== "approval").sort());
    expect(bestGeneration(summary.generations)?.id).toBe(bestGeneration(whole.generations)?.id);
    expect(bestGeneration(summary.generations)?.id).toBe("g0001");
    expect(summary.generations[4]?.scores.visible).toBe(1);
    expect(summary.generations[4]?.evaluation).toEqual({ passedStage1: true, coverage: { evaluated: 1, of: 4 } });
  });

  it("reports a record whose summary fields are corrupt; one corrupt elsewhere only readRun reports", async () => {
    const dir = await run();
    const path = (id: string): string => join(dir, id, "generation.json");
    await writeFile(path("g0001"), JSON.stringify({ ...generationRecord({ id: "g0001", parent: "g0000", depth: 1 }), scores: { visible: "high" } }));
    await writeFile(path("g0002"), JSON.stringify({ ...generationRecord({ id: "g0002", parent: "g0000", depth: 1 }), tokens: { prompt: -1 } }));
    const summary = await readRunSummary(dir);
    expect(summary.problems.map((p) => p.path)).toEqual([path("g0001")]);
    expect(summary.problems[0]?.reason).toMatch(/^schema: scores/);
    expect(summary.generations.map((g) => g.id)).toEqual(["g0000", "g0002", "g0003"]);
    const whole = await readRun(dir);
    expect(whole.problems.map((p) => p.path)).toEqual([path("g0001"), path("g0002")]);
  });
});
