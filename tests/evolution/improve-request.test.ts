/** The meta agent's request carries visible feedback and lineage notes only, never held-out data. */
import { describe, expect, it } from "vitest";
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import type { StageResult } from "../../harness/src/results/index.js";
import { buildImproveRequest } from "../../harness/src/evolution/index.js";
import type { TaskManifest } from "../../harness/src/evaluation/index.js";
import { evaluated, evaluationResult, generationRecord, instanceResult, scored, stageResult } from "../support/records.js";

const manifest: TaskManifest = {
  name: "email-validation",
  description: "classify addresses",
  metric: "accuracy",
  direction: "maximize",
  instanceTimeoutMs: 1000,
  evaluationTimeoutMs: 10_000,
  stages: { stage1Size: 1, threshold: 0.5 },
  repeats: 1,
};

function stage(name: StageResult["stage"], tag: string, score: number): StageResult {
  const split = name === "heldout" ? "heldout" : "visible";
  const instance = instanceResult({ id: `${tag}-1`, split, score, value: score, feedback: `feedback of ${tag}`, error: name === "visible" ? "timeout" : null, durationMs: 1 });
  return stageResult(name, [instance], { durationMs: 5, stderr: `stderr of ${tag}` });
}

/** A valid generation; with stages, its scores are those of its evaluation (the held-out one 0.99). */
function record(id: string, parent: string | null, visible: number, summary: string | null, stages: StageResult[] = []): GenerationRecord {
  const scores = stages.length === 0 ? scored(visible, 0.99) : evaluated(evaluationResult(stages));
  return generationRecord({ id, parent, depth: parent === null ? 0 : 1, ...scores, summary, changedFiles: [], tokens: { prompt: 0, completion: 0 }, costUsd: 0 });
}

describe("buildImproveRequest", () => {
  it("sends stage1 and visible feedback, lineage notes and budgets, and nothing of the held-out split", () => {
    const seed = record("g0000", null, 0.5, null);
    const parent = record("g0003", "g0000", 0.75, "offline: params.x 1→2", [stage("stage1", "sone", 0.7), stage("visible", "vis", 0.8), stage("heldout", "SECRET-HELDOUT", 0.99)]);
    const request = buildImproveRequest({
      manifest,
      generation: { id: "g0005", parent: "g0003", depth: 2 },
      seed: 42,
      parent,
      lineage: [seed, parent],
      llmTokens: 1234,
      deadline: 99,
      evaluations: 4,
    });
    const text = JSON.stringify(request);
    expect(text).not.toContain("SECRET-HELDOUT");
    expect(text).not.toContain("0.99");
    expect(request.feedback.score).toBe(0.75);
    expect(request.feedback.instances.map((i) => i.id)).toEqual(["sone-1", "vis-1"]);
    expect(request.feedback.instances[1]?.feedback).toBe("feedback of vis (error: timeout)");
    expect(request.feedback.stderr).toBe("stderr of sone\nstderr of vis");
    expect(request.lineage).toEqual([
      { id: "g0000", score: 0.5, summary: "seed" },
      { id: "g0003", score: 0.75, summary: "offline: params.x 1→2" },
    ]);
    expect(request.budget).toEqual({ llmTokens: 1234, deadline: 99, evaluations: 4 });
    expect(request.generation).toEqual({ id: "g0005", parent: "g0003", depth: 2 });
    expect(request.task).toEqual({ name: "email-validation", description: "classify addresses", metric: "accuracy" });
  });
});
