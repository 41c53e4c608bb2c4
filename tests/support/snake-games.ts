/**
 * Real snake games for tests of what a grader records: each instance graded in-process by the
 * task's own grader against a host-side test player (test code, never an agent), and stored as
 * g0000 of a run through the real ArchiveWriter. For `evolve watch` and the report's player.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ArchiveWriter } from "../../harness/src/archive/index.js";
import { attemptInstance, instanceResult } from "../../harness/src/evaluation/grade-instance.js";
import { loadTask, type Task } from "../../harness/src/evaluation/index.js";
import type { InstanceResult } from "../../harness/src/results/index.js";
import { evaluated, evaluationResult, generationRecord, runRecord, stageResult } from "./records.js";

type Board = { snake: [number, number][]; food: [number, number] | null };

/** A host-side test player: heads for the food, never back into its neck. */
export function chaser(): { alive: boolean; call(input: unknown): Promise<{ ok: true; value: string; durationMs: number }> } {
  return {
    alive: true,
    async call(input) {
      const b = input as Board;
      const [hx, hy] = b.snake[0]!;
      const [nx, ny] = b.snake[1]!;
      const [fx, fy] = b.food ?? [hx, hy];
      const steps = { right: [1, 0], left: [-1, 0], down: [0, 1], up: [0, -1] } as const;
      const wanted = [fx > hx ? "right" : "left", fy > hy ? "down" : "up", "up", "down", "left", "right"] as const;
      return { ok: true, value: wanted.find((m) => hx + steps[m][0] !== nx || hy + steps[m][1] !== ny)!, durationMs: 1 };
    },
  };
}

export interface SnakeRun {
  task: Task;
  root: string;
  runDir: string;
  writer: ArchiveWriter;
  visible: InstanceResult[];
  heldout: InstanceResult[];
  cleanup(): Promise<void>;
}

async function graded(task: Task, split: "visible" | "heldout"): Promise<InstanceResult[]> {
  const limits = { instanceTimeoutMs: 30_000, splitDeadline: Date.now() + 60_000, outputCapBytes: 1 << 20 };
  const out: InstanceResult[] = [];
  for (const instance of split === "visible" ? task.visible : task.heldout) {
    out.push(instanceResult(instance, split, [await attemptInstance(task.grader, instance, chaser(), 1, limits)]));
  }
  return out;
}

/** A run whose g0000 played every snake game, visible and held-out; the writer stays open for more records. */
export async function writeSnakeRun(runId = "snake-games"): Promise<SnakeRun> {
  const task = await loadTask(resolve(import.meta.dirname, "../../tasks/snake"));
  const root = await mkdtemp(join(tmpdir(), "evolve-snake-games-"));
  const writer = await ArchiveWriter.create(root, runRecord({ id: runId, config: { task: { name: "snake", dir: task.dir } } }));
  const visible = await graded(task, "visible");
  const heldout = await graded(task, "heldout");
  const seed = evaluated(evaluationResult([stageResult("stage1", visible.slice(0, 2)), stageResult("visible", visible.slice(2)), stageResult("heldout", heldout)]));
  await writer.recordGeneration(generationRecord({ id: writer.allocateGenerationId(), ...seed, snapshotHash: null }), { snapshotDir: null, patch: "", transcript: [], logs: {} });
  return { task, root, runDir: writer.runDir, writer, visible, heldout, cleanup: () => rm(root, { recursive: true, force: true }) };
}
