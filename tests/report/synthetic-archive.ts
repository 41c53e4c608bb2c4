/**
 * A synthetic run written through the real ArchiveWriter: a branching archive with valid
 * and invalid children, scores, circle packings, and hostile agent-written text (the
 * report must show it as text, never run it). For the report, inspect and scale tests.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import { ArchiveWriter, diffDirectories, writeTree } from "../../harness/src/archive/index.js";
import { FAILURE_CODES, type InstanceResult } from "../../harness/src/results/index.js";
import { createRng } from "../../harness/src/selection/index.js";
import { evaluated, evaluationResult, generationRecord, invalidAt, runRecord, stageResult } from "../support/records.js";

export const HOSTILE_SUMMARY = `</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;
export const HOSTILE_MESSAGE = `'"><svg onload="window.__pwned=3"> \u2028 <!-- ]]>`;

// The writer fsyncs every file; on tmpfs that costs nothing, so a 1,000-generation archive
// takes seconds instead of minutes on a busy disk. The writer's code path is the same.
const SCRATCH = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

const AT = new Date(Date.UTC(2025, 0, 2, 3, 4, 5)).getTime();
const STAGES = ["policy", "compile", "signature", "import", "self_modify", "extract"] as const;

export interface SyntheticOptions {
  readonly generations: number;
  readonly seed?: number;
  readonly runId?: string;
  /** Share of children that fail validation (default 0.2). */
  readonly invalidShare?: number;
}

export interface SyntheticRun {
  readonly root: string;
  readonly runDir: string;
  readonly runId: string;
  readonly records: GenerationRecord[];
  cleanup(): Promise<void>;
}

function taskSource(step: number, radius: number): string {
  return `// circle packing solver (synthetic)\nexport const STEP = ${step};\nexport const RADIUS = ${radius.toFixed(4)};\nexport async function solve(input: { n: number }) {\n  const circles: [number, number, number][] = [];\n  for (let i = 0; i < input.n; i++) circles.push([0.1, 0.1, RADIUS]);\n  return { circles };\n}\n`;
}

function packing(n: number, r: number): [number, number, number][] {
  const side = Math.ceil(Math.sqrt(n));
  const out: [number, number, number][] = [];
  for (let i = 0; i < n; i++) out.push([(2 * (i % side) + 1) * r, (2 * Math.floor(i / side) + 1) * r, r]);
  return out;
}

function instances(score: number, split: "visible" | "heldout", count: number): InstanceResult[] {
  return Array.from({ length: count }, (_, i) => {
    const n = 6 + i;
    const r = 1 / (2 * Math.ceil(Math.sqrt(n)));
    const s = Math.max(0, Math.min(1, score + (i - count / 2) * 0.01));
    const failed = s < 0.05;
    return {
      id: `${split}-n${n}`,
      split,
      score: failed ? 0 : s,
      value: failed ? null : n * r,
      feedback: failed ? HOSTILE_MESSAGE : `n=${n}: ${(100 * s).toFixed(1)}%`,
      error: failed ? "timeout" : null,
      durationMs: 10 + i,
      ...(failed ? {} : { artifact: { n, circles: packing(n, r) } }),
    };
  });
}

/** Writes a synthetic run of `generations` generations (the seed included) under a fresh temp root. */
export async function writeSyntheticRun(opts: SyntheticOptions): Promise<SyntheticRun> {
  const rng = createRng(opts.seed ?? 11);
  const runId = opts.runId ?? "synthetic";
  const root = await mkdtemp(join(SCRATCH, "evolve-synth-"));
  const work = await mkdtemp(join(SCRATCH, "evolve-synth-trees-"));
  const run = runRecord({
    id: runId,
    createdAt: new Date(AT).toISOString(),
    updatedAt: new Date(AT).toISOString(),
    config: { task: { name: "circle-packing", dir: "tasks/circle-packing" }, agentDir: "seed-agent", generations: opts.generations - 1, workers: 1, seed: opts.seed ?? 11 },
    status: "finished",
  });
  const writer = await ArchiveWriter.create(root, run);
  const records: GenerationRecord[] = [];
  const params = new Map<string, { step: number; radius: number }>();
  const valid: string[] = [];
  for (let k = 0; k < opts.generations; k++) {
    const id = writer.allocateGenerationId();
    const parentId = k === 0 ? null : (valid[rng.nextInt(valid.length)] ?? null);
    const parent = parentId === null ? null : (records.find((r) => r.id === parentId) ?? null);
    const base = parentId === null ? { step: 1, radius: 0.05 } : (params.get(parentId) ?? { step: 1, radius: 0.05 });
    const mine = { step: base.step + 1 + rng.nextInt(3), radius: Math.max(0.01, base.radius + (rng.next() - 0.4) * 0.01) };
    const invalid = k > 0 && rng.next() < (opts.invalidShare ?? 0.2);
    const stage = STAGES[rng.nextInt(STAGES.length)] ?? "compile";
    const tree = new Map([
      ["task/index.ts", taskSource(mine.step, mine.radius)],
      ["meta/index.ts", `export const ATTEMPT = ${k};\n`],
    ]);
    const dir = join(work, id);
    await writeTree(dir, tree);
    const diff = await diffDirectories(parentId === null ? null : join(work, parentId), dir);
    if (!diff.ok) throw new Error(diff.reason);
    const nothingBack = invalid && (stage === "self_modify" || stage === "extract");
    const visible = invalid ? null : Math.max(0, Math.min(1, (parent?.scores.visible ?? 0.4) + (rng.next() - 0.45) * 0.08));
    const heldout = visible === null ? null : Math.max(0, Math.min(1, visible - 0.02 + (rng.next() - 0.5) * 0.02));
    const outcome =
      visible === null || heldout === null
        ? invalidAt(stage, FAILURE_CODES[stage][0], HOSTILE_MESSAGE, { file: "task/index.ts", line: 3 })
        : evaluated(
            evaluationResult(
              [
                stageResult("stage1", instances(visible, "visible", 2), { durationMs: 40 }),
                stageResult("heldout", instances(heldout, "heldout", 2), { durationMs: 40 }),
              ],
              { computeMs: 50, durationMs: 80 },
            ),
          );
    const record = generationRecord({
      id,
      parent: parentId,
      depth: parent === null ? 0 : parent.depth + 1,
      ...outcome,
      summary: k % 7 === 3 ? HOSTILE_SUMMARY : `step ${base.step}→${mine.step}, radius ${mine.radius.toFixed(4)}`,
      changedFiles: diff.changes,
      tokens: { prompt: 0, completion: 0 },
      costUsd: null,
      timings: { selfModify: 100 + k, evaluate: 80, total: 200 + k },
      model: null,
      snapshotHash: nothingBack ? null : diff.snapshotHash,
      seed: (opts.seed ?? 11) + k,
      createdAt: new Date(AT + k * 1000).toISOString(),
    });
    await writer.recordGeneration(record, { snapshotDir: nothingBack ? null : dir, patch: nothingBack ? "" : diff.patch, transcript: [], logs: {} });
    records.push(record);
    params.set(id, mine);
    if (!invalid) valid.push(id);
  }
  await rm(work, { recursive: true, force: true });
  return { root, runDir: writer.runDir, runId, records, cleanup: () => rm(root, { recursive: true, force: true }) };
}
