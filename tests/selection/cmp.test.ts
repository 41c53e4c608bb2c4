/**
 * Selection that learns from descendants: the Beta sampler, clade outcomes pooled over a
 * subtree (invalid children as zeros, in-flight ones as a virtual loss), `cmp`'s Thompson
 * draws against the exact chance that one Beta beats another, the barren-children discount
 * of the strategies that count children, and children without a whole score kept out.
 */
import { describe, expect, it } from "vitest";
import {
  betaSample,
  candidatesFromGenerations,
  cladeOutcomes,
  createRng,
  gammaSample,
  restoreRng,
  selectionProbabilities,
  selectParent,
  strategyByName,
  type SelectionCandidate,
} from "../../harness/src/selection/index.js";
import { evaluated, evaluationResult, generationRecord, instanceResult, invalidAt, scored, stageResult } from "../support/records.js";

/** A valid child scored `scores` on the visible split (stage 1 holds them all). */
function scoredChild(id: string, parent: string | null, scores: number[], coverage?: { evaluated: number; of: number }) {
  const instances = scores.map((score, i) => instanceResult({ id: `v${i}`, score }));
  const evaluation = evaluationResult([stageResult("stage1", instances)], coverage === undefined ? {} : { coverage });
  const depth = parent === null ? 0 : 1;
  return generationRecord({ id, parent, depth, ...evaluated(evaluation) });
}

const logFactorial = (n: number): number => {
  let s = 0;
  for (let k = 2; k <= n; k++) s += Math.log(k);
  return s;
};
/** log B(a, b) for positive integers. */
const logBeta = (a: number, b: number): number => logFactorial(a - 1) + logFactorial(b - 1) - logFactorial(a + b - 1);

/** P(Y > X) for X ~ Beta(a1, b1), Y ~ Beta(a2, b2), integer parameters (the closed form for Beta–Beta comparisons). */
function chanceSecondWins(a1: number, b1: number, a2: number, b2: number): number {
  let total = 0;
  for (let i = 0; i < a2; i++) total += Math.exp(logBeta(a1 + i, b1 + b2) - Math.log(b2 + i) - logBeta(1 + i, b2) - logBeta(a1, b1));
  return total;
}

describe("Beta and Gamma draws", () => {
  it("have the distributions' means and variances (20,000 seeded draws)", () => {
    const rng = createRng(11);
    const n = 20_000;
    for (const [a, b] of [[3, 7], [1, 1], [0.5, 2], [40, 12]] as const) {
      const xs = Array.from({ length: n }, () => betaSample(a, b, rng));
      const mean = xs.reduce((s, x) => s + x, 0) / n;
      const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
      const expectedMean = a / (a + b);
      const expectedVariance = (a * b) / ((a + b) ** 2 * (a + b + 1));
      expect(xs.every((x) => x >= 0 && x <= 1)).toBe(true);
      expect(Math.abs(mean - expectedMean)).toBeLessThan(5 * Math.sqrt(expectedVariance / n));
      expect(Math.abs(variance / expectedVariance - 1)).toBeLessThan(0.06);
    }
    const gammas = Array.from({ length: n }, () => gammaSample(0.3, rng));
    expect(Math.abs(gammas.reduce((s, x) => s + x, 0) / n - 0.3)).toBeLessThan(5 * Math.sqrt(0.3 / n));
    expect(() => gammaSample(0, rng)).toThrow(/positive/);
  });
});

describe("clade outcomes", () => {
  it("pool a node's own visible scores with every descendant's; invalid children are a whole evaluation of zeros; in-flight ones too", () => {
    const records = [
      scoredChild("g0000", null, [1, 0.5]),
      scoredChild("g0001", "g0000", [1, 1]),
      generationRecord({ id: "g0002", parent: "g0000", depth: 1, ...invalidAt("policy", "empty_diff") }),
      { ...scoredChild("g0003", "g0001", [0, 0.5]), depth: 2 },
    ];
    const clades = cladeOutcomes(records, ["g0001"]);
    // g0001: itself (2, 0) + g0003 (0.5, 1.5) + one in-flight child (0, 2).
    expect(clades.get("g0001")).toEqual({ successes: 2.5, failures: 3.5 });
    // g0000: itself (1.5, 0.5) + g0001's clade + g0002 invalid (0, 2).
    expect(clades.get("g0000")).toEqual({ successes: 4, failures: 6 });
    expect(clades.get("g0003")).toEqual({ successes: 0.5, failures: 1.5 });
  });

  it("never loops on a corrupt archive with a parent cycle", () => {
    const a = { ...scoredChild("g0001", "g0002", [1]) };
    const b = { ...scoredChild("g0002", "g0001", [0]) };
    expect(cladeOutcomes([a, b]).get("g0001")).toEqual({ successes: 1, failures: 1 });
  });
});

describe("cmp: Thompson sampling of clade posteriors", () => {
  const strategy = strategyByName("cmp");
  const two: SelectionCandidate[] = [
    { id: "g0001", valid: true, score: 0.9, children: 3, clade: { successes: 3, failures: 6 } },
    { id: "g0002", valid: true, score: 0.6, children: 1, clade: { successes: 4, failures: 1 } },
    { id: "g0003", valid: false, score: 1, children: 0, clade: { successes: 50, failures: 0 } },
  ];

  it("picks a node as often as its Beta(1 + s, 1 + f) beats the other's", () => {
    const p = chanceSecondWins(4, 7, 5, 2);
    const rng = createRng(3);
    const draws = 10_000;
    let second = 0;
    for (let i = 0; i < draws; i++) if (selectParent(strategy, [...two].reverse(), rng) === "g0002") second++;
    expect(Math.abs(second / draws - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / draws));
    // A high score alone does not win: the clade of g0001 has mostly failed.
    expect(p).toBeGreaterThan(0.8);
  });

  it("is reproducible from a saved RNG state, and ignores ineligible nodes", () => {
    const rng = createRng(8);
    selectParent(strategy, two, rng);
    const saved = rng.state();
    const a = Array.from({ length: 40 }, () => selectParent(strategy, two, rng));
    const restored = restoreRng(saved);
    expect(Array.from({ length: 40 }, () => selectParent(strategy, two, restored))).toEqual(a);
    expect(rng.state()).toEqual(restored.state());
    expect(a).not.toContain("g0003");
    expect(selectParent(strategy, [two[2]!], createRng(1))).toBeNull();
  });

  it("turns away from a parent whose children keep coming out empty (from records)", () => {
    const records = [
      scoredChild("g0000", null, [0.8, 0.8, 0.8]),
      scoredChild("g0001", "g0000", [0.9, 0.9, 0.9]),
      ...["g0002", "g0003", "g0004", "g0005"].map((id) => generationRecord({ id, parent: "g0001", depth: 2, ...invalidAt("policy", "empty_diff") })),
      scoredChild("g0006", "g0000", [0.85, 0.85, 0.85]),
    ];
    const candidates = candidatesFromGenerations(records);
    const rng = createRng(5);
    const picks = Array.from({ length: 2000 }, () => selectParent(strategy, candidates, rng));
    const share = (id: string): number => picks.filter((x) => x === id).length / picks.length;
    expect(share("g0001")).toBeLessThan(0.1);
    expect(share("g0006")).toBeGreaterThan(share("g0001") * 4);
  });
});

describe("the barren-children discount", () => {
  const archive: SelectionCandidate[] = [
    { id: "g0000", valid: true, score: 0.8, children: 4, barren: 3 },
    { id: "g0001", valid: true, score: 0.8, children: 4, barren: 0 },
    { id: "g0002", valid: true, score: 0.8, children: 0 },
  ];

  it("weighs a parent by the share of its children that were not barren, in the strategies that count children", () => {
    for (const name of ["score_child_prop", "hyperagents"] as const) {
      const plain = selectionProbabilities(strategyByName(name), archive);
      expect(plain.get("g0000")).toBeCloseTo(plain.get("g0001") ?? NaN, 12);
      const discounted = selectionProbabilities(strategyByName(name, { discountBarren: true }), archive);
      // (1 + 1) / (1 + 4) against (1 + 4) / (1 + 4): two fifths of the weight.
      expect((discounted.get("g0000") ?? 0) / (discounted.get("g0001") ?? 1)).toBeCloseTo(0.4, 12);
    }
    expect(selectionProbabilities(strategyByName("score_child_prop", { discountBarren: true }), archive).get("g0002")).toBeGreaterThan(0.5);
  });
});

describe("plateaus", () => {
  // g0000 -> g0001 -> g0002 all at 0.5 (children that changed nothing the score sees);
  // g0003 at 0.6 with g0005 at 0.6 below it, the archive's best; g0004 invalid.
  const records = [
    generationRecord({ id: "g0000", ...scored(0.5) }),
    generationRecord({ id: "g0001", parent: "g0000", depth: 1, ...scored(0.5) }),
    generationRecord({ id: "g0002", parent: "g0001", depth: 2, ...scored(0.5) }),
    generationRecord({ id: "g0003", parent: "g0000", depth: 1, ...scored(0.6) }),
    generationRecord({ id: "g0004", parent: "g0003", depth: 2, ...invalidAt("compile", "type_error") }),
    generationRecord({ id: "g0005", parent: "g0003", depth: 2, ...scored(0.6) }),
  ];

  it("joins valid parents and children of the same whole visible score below the best; the best's plateau is the frontier and stays whole", () => {
    const plateau = new Map(candidatesFromGenerations(records).map((c) => [c.id, c.plateau]));
    expect(Object.fromEntries(plateau)).toEqual({ g0000: 3, g0001: 3, g0002: 3, g0003: 1, g0004: 1, g0005: 1 });
    // A better child makes the old frontier a plateau below the best.
    const better = [...records, generationRecord({ id: "g0006", parent: "g0005", depth: 3, ...scored(0.7) })];
    expect(candidatesFromGenerations(better).find((c) => c.id === "g0005")?.plateau).toBe(2);
    // A better child held back for approval is no parent, so it is not the frontier either.
    const held = [...records, generationRecord({ id: "g0006", parent: "g0005", depth: 3, ...scored(0.7), approval: { reasons: ["changes meta/index.ts"], deadline: null, decision: null } })];
    expect(candidatesFromGenerations(held).find((c) => c.id === "g0005")?.plateau).toBe(1);
  });

  it("shares a plateau's weight among its generations when the discount is on, and leaves it whole when off", () => {
    const candidates = candidatesFromGenerations(records);
    const on = selectionProbabilities(strategyByName("score_child_prop", { discountBarren: true }), candidates);
    const off = selectionProbabilities(strategyByName("score_child_prop"), candidates);
    // g0002 (no children, a plateau of 3) against g0005 (no children, at the best), scores 0.5 and 0.6.
    const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
    const bare = sigmoid(0) / sigmoid(1);
    expect((off.get("g0002") ?? 0) / (off.get("g0005") ?? 1)).toBeCloseTo(bare, 12);
    expect((on.get("g0002") ?? 0) / (on.get("g0005") ?? 1)).toBeCloseTo(bare / 3, 12);
  });
});

describe("children without a whole visible score", () => {
  it("are no parents: a race that stopped early leaves a partial score only", () => {
    const records = [
      scoredChild("g0000", null, [0.9, 0.9, 0.9], { evaluated: 3, of: 3 }),
      scoredChild("g0001", "g0000", [0.1], { evaluated: 1, of: 3 }),
      scoredChild("g0002", "g0000", [1, 1, 1], { evaluated: 3, of: 3 }),
    ];
    const byId = new Map(candidatesFromGenerations(records).map((c) => [c.id, c]));
    expect(byId.get("g0001")?.valid).toBe(false);
    expect(byId.get("g0002")?.valid).toBe(true);
    // A legacy staged record that stopped after stage 1 (no coverage recorded) is partial too.
    const legacy = generationRecord({ id: "g0003", parent: "g0000", depth: 1, ...evaluated(evaluationResult([stageResult("stage1", [instanceResult({ id: "v0", score: 0.2 })])], { passedStage1: false })) });
    expect(candidatesFromGenerations([...records, legacy]).find((c) => c.id === "g0003")?.valid).toBe(false);
  });
});
