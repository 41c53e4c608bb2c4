/** Improve requests for the seed meta agent in tests (visible feedback only, as the harness sends). */
import type { ImproveRequest, LineageStep } from "@evolve/contract";
import type { WireJson } from "../../harness/src/kernel/index.js";

/** A request to improve the seed on `task`, with a little visible feedback, the given lineage, and `evaluations` calls of ctx.evaluate. */
export function improveRequest(task: string, seed: number, lineage: LineageStep[] = [], evaluations = 0): ImproveRequest & WireJson {
  const request: ImproveRequest = {
    task: { name: task, description: `the ${task} task`, metric: "score" },
    generation: { id: "g0001", parent: "g0000", depth: 1 },
    seed,
    feedback: {
      score: 0.42,
      instances: [
        { id: "n26", score: 0.4, feedback: "sum of radii 2.1; circles 3 and 7 nearly touch" },
        { id: "n20", score: 0.44, feedback: "sum of radii 1.7" },
      ],
      stderr: "",
    },
    lineage: lineage.length > 0 ? lineage : [{ id: "g0000", score: 0.42, summary: "seed" }],
    budget: { llmTokens: null, deadline: Date.now() + 100_000, evaluations },
  };
  return request as ImproveRequest & WireJson;
}
