/** Improve requests for the seed meta agent in tests (visible feedback only, as the harness sends). */
import type { ImproveContext, ImproveRequest, LineageStep } from "@evolve/contract";
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

/**
 * What the knob search (seed-agent/meta/knob-search.ts) reads of an ImproveContext, over the
 * tree in memory, with a seeded random stream: the search run on the host, without a runner.
 */
export function treeContext(tree: ReadonlyMap<string, string>, seed: number): ImproveContext {
  let state = seed;
  return {
    random: () => (state = (state * 16807) % 2147483647) / 2147483647,
    files: { list: async () => [...tree.keys()], read: async (path: string) => tree.get(path) ?? "" },
    log: () => undefined,
  } as unknown as ImproveContext;
}

/** The fields of a request the knob search reads: the task, the lineage, no attempts yet, three evaluations. */
export function searchRequest(task: string, lineage: LineageStep[] = []): ImproveRequest {
  return { task: { name: task }, lineage, attempts: [], feedback: { stderr: "", instances: [] }, budget: { deadline: Date.now() + 3_600_000, evaluations: 3 } } as unknown as ImproveRequest;
}
