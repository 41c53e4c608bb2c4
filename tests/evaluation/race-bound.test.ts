/**
 * The racing rule on its own: where the checks fall, that the upper bound is exact when
 * everything is seen and certain when nothing of the rest is, that over many random orders
 * it falls below the true whole mean no more often than the stated δ, and that the seeded
 * order is a permutation independent of the input's order.
 */
import { describe, expect, it } from "vitest";
import { raceCheckpoints, raceUpperBound, seededOrder } from "../../harness/src/evaluation/index.js";
import { createRng } from "../../harness/src/selection/index.js";

describe("race checkpoints", () => {
  it("check after stage 1, then after batches of the rest that double", () => {
    expect(raceCheckpoints(1, 2)).toEqual([0, 1]);
    expect(raceCheckpoints(2, 2)).toEqual([0]);
    expect(raceCheckpoints(2, 4)).toEqual([0, 2]);
    expect(raceCheckpoints(10, 90)).toEqual([0, 10, 30, 70]);
    expect(raceCheckpoints(0, 5)).toEqual([0, 1, 3]);
    expect(raceCheckpoints(3, 0)).toEqual([0]);
  });
});

describe("the upper bound on the whole visible mean", () => {
  it("is certain after stage 1 (every unseen instance at 1) and exact once everything is seen", () => {
    expect(raceUpperBound({ stage1Sum: 0.5, stage1Count: 1, restSum: 0, restSeen: 0, restSize: 2 }, 0.05, 1)).toBeCloseTo(2.5 / 3, 12);
    expect(raceUpperBound({ stage1Sum: 0.5, stage1Count: 1, restSum: 1.2, restSeen: 2, restSize: 2 }, 0.05, 1)).toBeCloseTo(1.7 / 3, 12);
    expect(raceUpperBound({ stage1Sum: 0, stage1Count: 0, restSum: 0, restSeen: 0, restSize: 0 }, 0.05, 1)).toBe(1);
  });

  it("tightens with more of the rest seen and loosens with a smaller delta", () => {
    const tally = (seen: number) => ({ stage1Sum: 5, stage1Count: 10, restSum: seen * 0.5, restSeen: seen, restSize: 90 });
    const bounds = [10, 30, 70].map((seen) => raceUpperBound(tally(seen), 0.05, 3));
    expect(bounds[0]!).toBeGreaterThan(bounds[1]!);
    expect(bounds[1]!).toBeGreaterThan(bounds[2]!);
    // Serfling's, not the certain bound, is what bites with many instances left.
    expect(bounds[1]!).toBeLessThan((5 + 15 + 60) / 100);
    expect(raceUpperBound(tally(30), 0.001, 3)).toBeGreaterThan(bounds[1]!);
  });

  it("falls below the true whole mean in at most δ of random orders, over a whole race", () => {
    // 200 instances, 0/1 scores, mean 0.6; stage 1 is the first 10, the rest in a random order.
    const delta = 0.1;
    const population: number[] = Array.from({ length: 200 }, (_, i) => (i % 5 < 3 ? 1 : 0));
    const truth = population.reduce((a, b) => a + b, 0) / population.length;
    const stage1 = population.slice(0, 10);
    const points = raceCheckpoints(10, 190).filter((m) => m > 0);
    const rng = createRng(42);
    const trials = 4000;
    let violations = 0;
    for (let t = 0; t < trials; t++) {
      const rest = population.slice(10);
      for (let i = rest.length - 1; i > 0; i--) {
        const j = rng.nextInt(i + 1);
        [rest[i], rest[j]] = [rest[j]!, rest[i]!];
      }
      const violated = points.some((m) => {
        const seen = rest.slice(0, m);
        const tally = { stage1Sum: stage1.reduce((a, b) => a + b, 0), stage1Count: 10, restSum: seen.reduce((a, b) => a + b, 0), restSeen: m, restSize: 190 };
        return raceUpperBound(tally, delta, points.length) < truth;
      });
      if (violated) violations++;
    }
    // Hoeffding–Serfling is conservative: well under δ, and never above it beyond sampling noise.
    expect(violations / trials).toBeLessThanOrEqual(delta + 3 * Math.sqrt((delta * (1 - delta)) / trials));
  });
});

describe("the seeded order of the rest", () => {
  const items = Array.from({ length: 30 }, (_, i) => ({ id: `i${i}` }));

  it("is a permutation, the same for the same seed whatever the input order, different for another seed", () => {
    const a = seededOrder(items, 7).map((x) => x.id);
    expect([...a].sort()).toEqual(items.map((x) => x.id).sort());
    expect(seededOrder([...items].reverse(), 7).map((x) => x.id)).toEqual(a);
    expect(seededOrder(items, 8).map((x) => x.id)).not.toEqual(a);
    expect(a).not.toEqual(items.map((x) => x.id));
  });
});
