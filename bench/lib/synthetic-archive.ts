/**
 * A synthetic run of N generations written through the real ArchiveWriter (records, patches,
 * snapshots, events), for the archive-scale benchmark. Parents are drawn at random among
 * valid generations; about 20% of children are invalid; valid ones carry a three-stage
 * evaluation like email-validation's. Snapshots are a small two-file tree (a real seed
 * snapshot is larger, but loading, `evolve tree` and the report read records and patches).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { ArchiveWriter, diffDirectories, writeTree } from "../../harness/src/archive/index.js";
import type { InstanceResult } from "../../harness/src/results/index.js";
import { createRng } from "../../harness/src/selection/index.js";
// The one record builder of the tests: benchmark records parse with the real schemas too.
import { evaluated, evaluationResult, generationRecord, invalidAt, runRecord, stageResult } from "../../tests/support/records.js";

function instances(split: "visible" | "heldout", prefix: string, count: number, score: number): InstanceResult[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    split,
    score: Math.min(1, Math.max(0, score + (i % 3) * 0.01)),
    value: score,
    feedback: `${Math.round(score * 20)}/20 addresses classified correctly`,
    error: null,
    durationMs: 5 + i,
  }));
}

/** Writes `<root>/<runId>` with `generations` generations (g0000 included); returns the run folder. */
export async function writeSyntheticArchive(root: string, runId: string, generations: number): Promise<string> {
  const rng = createRng(7);
  const t0 = Date.UTC(2025, 0, 1);
  const run = runRecord({
    id: runId,
    createdAt: new Date(t0).toISOString(),
    updatedAt: new Date(t0).toISOString(),
    config: { task: { name: "email-validation", dir: "tasks/email-validation" }, agentDir: "seed-agent", generations: generations - 1, seed: 1 },
    harnessVersion: "bench",
    status: "finished",
  });
  const writer = await ArchiveWriter.create(root, run);
  const trees = await mkdtemp(join(root, "trees-"));
  const valid: { id: string; visible: number; depth: number; knob: number }[] = [];
  try {
    for (let k = 0; k < generations; k++) {
      const id = writer.allocateGenerationId();
      const parent = k === 0 ? null : (valid[rng.nextInt(valid.length)] ?? null);
      const knob = (parent?.knob ?? 10) + rng.nextInt(5) - 2;
      const dir = join(trees, "current");
      await rm(dir, { recursive: true, force: true });
      await writeTree(dir, new Map([
        ["task/index.ts", `export const params = { threshold: ${knob} }; // knob\nexport async function solve(input: unknown) {\n  return input;\n}\n`],
        ["meta/index.ts", `export const step = ${k % 13};\n`],
      ]));
      const parentDir = parent === null ? null : join(trees, parent.id);
      const diff = await diffDirectories(parentDir, dir);
      if (!diff.ok) throw new Error(diff.reason);
      const invalid = k > 0 && rng.next() < 0.2;
      const visible = invalid ? null : Math.min(1, Math.max(0, (parent?.visible ?? 0.78) + (rng.next() - 0.45) * 0.05));
      const heldout = visible === null ? null : Math.max(0, visible - 0.1);
      const outcome =
        visible === null || heldout === null
          ? invalidAt("compile", "type_error", "task/index.ts(2,3): error TS2322", { file: "task/index.ts", line: 2 })
          : evaluated(
              evaluationResult(
                [
                  stageResult("stage1", instances("visible", "v", 1, visible), { durationMs: 300 }),
                  stageResult("visible", instances("visible", "w", 2, visible), { durationMs: 400 }),
                  stageResult("heldout", instances("heldout", "h", 2, heldout), { durationMs: 400 }),
                ],
                { computeMs: 60, durationMs: 1100 },
              ),
            );
      const record = generationRecord({
        id,
        parent: parent?.id ?? null,
        depth: parent === null ? 0 : parent.depth + 1,
        ...outcome,
        summary: `threshold ${parent?.knob ?? 10} -> ${knob}`,
        changedFiles: diff.changes,
        tokens: { prompt: 0, completion: 0 },
        costUsd: null,
        timings: { materialise: 1, selfModify: 3000, compile: 1500, import: 500, evaluate: 1100, record: 3, total: 6200 },
        model: null,
        snapshotHash: diff.snapshotHash,
        seed: k,
        createdAt: new Date(t0 + k * 1000).toISOString(),
      });
      await writer.recordGeneration(record, { snapshotDir: dir, patch: diff.patch, transcript: [], logs: {} });
      await writer.appendEvent({ type: "recorded", at: record.createdAt, generation: id, status: record.status.kind });
      if (visible !== null) {
        await rm(join(trees, id), { recursive: true, force: true });
        await writeTree(join(trees, id), new Map([
          ["task/index.ts", `export const params = { threshold: ${knob} }; // knob\nexport async function solve(input: unknown) {\n  return input;\n}\n`],
          ["meta/index.ts", `export const step = ${k % 13};\n`],
        ]));
        valid.push({ id, visible, depth: record.depth, knob });
      }
    }
  } finally {
    await rm(trees, { recursive: true, force: true });
  }
  return writer.runDir;
}
