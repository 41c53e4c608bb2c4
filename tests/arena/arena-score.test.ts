/** The arena's selection arithmetic, pure: scores over visible and suite, keeping the best, binary tournaments. */
import { describe, expect, it } from "vitest";
import { candidateScores, keepBest, tournamentPick } from "../../harness/src/arena/index.js";
import { createRng } from "../../harness/src/selection/index.js";

const outcome = (score: number) => ({ score, feedback: "" });

describe("candidateScores", () => {
  it("means over visible, over the suite and over both, a missing result counting 0", () => {
    const results = new Map([["v1", outcome(1)], ["v2", outcome(0.5)], ["arena-t0001-1", outcome(0)]]);
    expect(candidateScores(results, ["v1", "v2"], ["arena-t0001-1", "arena-t0001-2"])).toEqual({ visible: 0.75, suite: 0, arena: 1.5 / 4 });
    expect(candidateScores(results, ["v1"], [])).toEqual({ visible: 1, suite: null, arena: 1 });
  });
});

describe("keepBest", () => {
  it("keeps the fittest, and on a tie the earlier (the incumbent before its challenger)", () => {
    const fitness = new Map([["g1", 0.5], ["g2", 0.9], ["g3", 0.5], ["g4", 0.1]]);
    expect(keepBest(["g1", "g2", "g3", "g4"], (id) => fitness.get(id)!, 2)).toEqual(["g2", "g1"]);
    expect(keepBest(["g3", "g1"], (id) => fitness.get(id)!, 1)).toEqual(["g3"]);
  });
});

describe("tournamentPick", () => {
  it("draws two and returns the fitter, so the fittest wins more often than chance, and is deterministic for a seed", () => {
    const ids = ["a", "b", "c", "d"];
    const fitness = (id: string): number => ids.indexOf(id);
    const picks = (seed: number): string[] => {
      const rng = createRng(seed);
      return Array.from({ length: 400 }, () => tournamentPick(rng, ids, fitness));
    };
    const drawn = picks(7);
    expect(picks(7)).toEqual(drawn);
    // With two draws, "d" wins unless neither draw is "d": 1 − (3/4)² ≈ 44 %; "a" only when both are "a": 1/16.
    const share = (id: string): number => drawn.filter((x) => x === id).length / drawn.length;
    expect(share("d")).toBeGreaterThan(0.35);
    expect(share("a")).toBeLessThan(0.12);
    expect(() => tournamentPick(createRng(1), [], fitness)).toThrow(RangeError);
  });
});
