/** Builders of valid records and random trees for the archive tests. */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GenerationRecord, RunRecord } from "../../harness/src/archive/index.js";
import type { Rng } from "../../harness/src/selection/index.js";

export const AT = "2025-01-02T03:04:05.678Z";

/** A complete set of run limits (run.json version 2 requires every key). */
export const TEST_LIMITS: RunRecord["config"]["limits"] = {
  budgetTokens: null,
  budgetUsd: null,
  generationTokens: null,
  improveTimeoutMs: 60_000,
  importTimeoutMs: 10_000,
  checkMemoryMb: 1024,
  checkTimeoutMs: 30_000,
};

export function makeRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    schemaVersion: 2,
    id: "run-test",
    createdAt: AT,
    updatedAt: AT,
    config: {
      task: { name: "circle-packing", dir: "/tasks/circle-packing" },
      agentDir: "/seed-agent",
      generations: 8,
      workers: 2,
      selection: "score_child_prop",
      seed: 7,
      model: null,
      runtime: "runc",
      limits: TEST_LIMITS,
    },
    harnessVersion: "0.1.0",
    status: "running",
    rng: null,
    ...overrides,
  };
}

export function makeGeneration(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    schemaVersion: 1,
    id: "g0000",
    parent: null,
    depth: 0,
    status: { kind: "valid" },
    evaluation: {
      stages: [
        {
          stage: "stage1",
          instances: [
            { id: "i1", split: "visible", score: 0.5, value: 1.25, feedback: "ok", error: null, durationMs: 12 },
            { id: "i2", split: "visible", score: 0, value: null, feedback: "", error: "timeout", durationMs: 1000, repeats: [0, 0] },
          ],
          score: 0.25,
          durationMs: 1100,
          stderr: "",
        },
      ],
      visibleScore: 0.25,
      heldoutScore: null,
      passedStage1: true,
      computeMs: 1012,
      durationMs: 1200,
    },
    scores: { visible: 0.25, heldout: null, stage1: 0.25 },
    summary: "tuned the step size",
    changedFiles: [{ path: "task/index.ts", change: "modified", additions: 2, deletions: 1 }],
    tokens: { prompt: 100, completion: 20 },
    costUsd: null,
    timings: { selfModify: 1500, compile: 300, evaluate: 1200, custom_phase: 3 },
    model: null,
    snapshotHash: null,
    seed: 7,
    createdAt: AT,
    ...overrides,
  };
}

/** A fresh temporary folder. */
export async function tempDir(prefix = "evolve-archive-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

const WORDS = ["const", "let", "x", "=", "1;", "return", "{", "}", "// note", "", "  ", "if (a)", "\t", "é", "🙂", "\r"];

/** Random text over a small vocabulary so diffs see many equal and repeated lines. */
export function randomText(rng: Rng, maxLines: number): string {
  const n = rng.nextInt(maxLines + 1);
  let text = "";
  for (let i = 0; i < n; i++) {
    text += Array.from({ length: 1 + rng.nextInt(3) }, () => WORDS[rng.nextInt(WORDS.length)]).join(" ");
    text += "\n";
  }
  // A third of files end without a newline.
  if (text.length > 0 && rng.nextInt(3) === 0) text = text.slice(0, -1);
  return text;
}

/** A random tree of up to `maxFiles` files under a few folders. */
export function randomTree(rng: Rng, maxFiles: number): Map<string, string> {
  const tree = new Map<string, string>();
  const n = rng.nextInt(maxFiles + 1);
  for (let i = 0; i < n; i++) {
    const dir = ["", "task/", "meta/", "meta/tools/"][rng.nextInt(4)] ?? "";
    tree.set(`${dir}f${rng.nextInt(12)}.ts`, randomText(rng, 30));
  }
  return tree;
}

/** A random edit of a tree: some files changed line-wise, some deleted, some added. */
export function mutateTree(rng: Rng, tree: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map(tree);
  for (const [path, text] of tree) {
    const roll = rng.nextInt(6);
    if (roll === 0) out.delete(path);
    else if (roll <= 2) {
      const lines = text.split("\n");
      for (let k = rng.nextInt(4); k >= 0; k--) {
        const at = rng.nextInt(lines.length + 1);
        if (rng.nextInt(2) === 0) lines.splice(at, 1);
        else lines.splice(at, 0, randomText(rng, 2).replace(/\n$/, ""));
      }
      out.set(path, lines.join("\n"));
    }
  }
  if (rng.nextInt(2) === 0) out.set(`new/f${rng.nextInt(100)}.ts`, randomText(rng, 10));
  return out;
}
