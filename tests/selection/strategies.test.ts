import { describe, expect, it } from "vitest";
import {
  candidatesFromGenerations,
  createRng,
  restoreRng,
  SelectionStrategyName,
  selectionProbabilities,
  selectParent,
  strategyByName,
} from "../../harness/src/selection/index.js";
import type { SelectionCandidate } from "../../harness/src/selection/index.js";
import { generationRecord, invalidAt, scored } from "../support/records.js";

/** A fixed archive: scores and children chosen so every strategy gives distinct odds. */
const ARCHIVE: SelectionCandidate[] = [
  { id: "g0000", valid: true, score: 0.3, children: 4 },
  { id: "g0001", valid: true, score: 0.55, children: 1 },
  { id: "g0002", valid: false, score: 0.99, children: 0 },
  { id: "g0003", valid: true, score: 0.7, children: 0 },
  { id: "g0004", valid: true, score: 0.7, children: 9 },
  { id: "g0005", valid: true, score: 0.45, children: 2 },
  { id: "g0006", valid: false, score: 0, children: 0 },
];
const VALID = ARCHIVE.filter((c) => c.valid);

/** The strategies that weigh candidates by a formula (cmp draws Thompson samples: tests/selection/cmp.test.ts). */
type Weighted = Exclude<SelectionStrategyName, "cmp">;
const WEIGHTED = SelectionStrategyName.options.filter((n): n is Weighted => n !== "cmp");

/** The formulas, written out again independently of the implementation. */
function expectedOdds(name: Weighted): Map<string, number> {
  const s = (x: number): number => 1 / (1 + Math.exp(-x));
  let weights: number[];
  switch (name) {
    case "score_child_prop":
      weights = VALID.map((c) => s(10 * (c.score - 0.5)) * (1 / (1 + c.children)));
      break;
    case "hyperagents": {
      const mid = (0.7 + 0.7 + 0.55) / 3;
      weights = VALID.map((c) => s(10 * (c.score - mid)) * Math.exp(-Math.pow(c.children / 8, 3)));
      break;
    }
    case "random":
      weights = VALID.map(() => 1);
      break;
    case "best":
      weights = VALID.map((c) => (c.id === "g0003" ? 1 : 0));
      break;
    case "greedy":
      weights = VALID.map((c) => (c.id === "g0004" ? 1 : 0));
      break;
    case "latest":
      weights = VALID.map((c) => (c.id === "g0005" ? 1 : 0));
      break;
  }
  const total = weights.reduce((a, b) => a + b, 0);
  return new Map(VALID.map((c, i) => [c.id, (weights[i] ?? 0) / total]));
}

describe.each(WEIGHTED)("strategy %s", (name) => {
  const strategy = strategyByName(name);

  it("gives the formula's probabilities, to invalid generations none", () => {
    const odds = selectionProbabilities(strategy, ARCHIVE);
    const expected = expectedOdds(name);
    expect([...odds.keys()]).toEqual([...expected.keys()]);
    for (const [id, p] of expected) expect(odds.get(id)).toBeCloseTo(p, 12);
  });

  it("draws with those frequencies over 10,000 seeded draws", () => {
    const rng = createRng(1234);
    const counts = new Map<string, number>();
    const draws = 10_000;
    // Shuffled input: the outcome must not depend on the order candidates arrive in.
    const shuffled = [...ARCHIVE].reverse();
    for (let i = 0; i < draws; i++) {
      const id = selectParent(strategy, shuffled, rng);
      if (id === null) throw new Error("no parent");
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, p] of expectedOdds(name)) {
      // Five standard deviations of a binomial proportion, so a correct sampler never flakes.
      const tolerance = 5 * Math.sqrt((p * (1 - p)) / draws) + 1e-9;
      expect(Math.abs((counts.get(id) ?? 0) / draws - p)).toBeLessThanOrEqual(tolerance);
    }
    expect(counts.has("g0002")).toBe(false);
    expect(counts.has("g0006")).toBe(false);
  });

  it("returns null when no generation is valid", () => {
    expect(selectParent(strategy, ARCHIVE.filter((c) => !c.valid), createRng(1))).toBeNull();
    expect(selectParent(strategy, [], createRng(1))).toBeNull();
  });

  it("is reproducible from a saved RNG state", () => {
    const rng = createRng(99);
    for (let i = 0; i < 10; i++) selectParent(strategy, ARCHIVE, rng);
    const saved = rng.state();
    const a = Array.from({ length: 50 }, () => selectParent(strategy, ARCHIVE, rng));
    const restored = restoreRng(saved);
    expect(Array.from({ length: 50 }, () => selectParent(strategy, ARCHIVE, restored))).toEqual(a);
    // Deterministic strategies never consume randomness.
    const probe = createRng(5);
    selectParent(strategy, ARCHIVE, probe);
    const oneDrawLater = createRng(5);
    oneDrawLater.next();
    expect(probe.state()).toEqual(strategy.stochastic ? oneDrawLater.state() : createRng(5).state());
  });
});

describe("strategy details", () => {
  it("score_child_prop gives the seed alone all the weight", () => {
    expect(selectParent(strategyByName("score_child_prop"), [{ id: "g0000", valid: true, score: 0, children: 50 }], createRng(1))).toBe("g0000");
  });

  it("hyperagents falls back to uniform when every weight underflows", () => {
    const crowded = [
      { id: "g0000", valid: true, score: 0.5, children: 400 },
      { id: "g0001", valid: true, score: 0.6, children: 500 },
    ];
    expect([...selectionProbabilities(strategyByName("hyperagents"), crowded).values()]).toEqual([0.5, 0.5]);
  });

  it("best and greedy differ only on ties: earliest versus latest", () => {
    const tie = [
      { id: "g0001", valid: true, score: 0.8, children: 0 },
      { id: "g0010", valid: true, score: 0.8, children: 3 },
      { id: "g0009", valid: true, score: 0.2, children: 0 },
    ];
    expect(selectParent(strategyByName("best"), tie, createRng(1))).toBe("g0001");
    expect(selectParent(strategyByName("greedy"), tie, createRng(1))).toBe("g0010");
    expect(selectParent(strategyByName("latest"), tie, createRng(1))).toBe("g0010");
  });

  it("orders ids numerically beyond g9999 for latest", () => {
    const cs = [
      { id: "g9999", valid: true, score: 0, children: 0 },
      { id: "g10000", valid: true, score: 0, children: 0 },
    ];
    expect(selectParent(strategyByName("latest"), cs, createRng(1))).toBe("g10000");
  });

  it("builds candidates from records: all attempted children and in-flight ones count", () => {
    const records = [
      generationRecord({ id: "g0000", ...scored(0.4) }),
      generationRecord({ id: "g0001", parent: "g0000", depth: 1, ...invalidAt("compile", "type_error") }),
      generationRecord({ id: "g0002", parent: "g0000", depth: 1, ...scored(null) }),
    ];
    // g0002 has no whole visible score, so it is no parent; g0001 is its parent's barren child.
    expect(candidatesFromGenerations(records, ["g0002", "g0000"]).map(({ clade: _, ...c }) => c)).toEqual([
      { id: "g0000", valid: true, score: 0.4, children: 3, barren: 1, plateau: 1 },
      { id: "g0001", valid: false, score: 0, children: 0, barren: 0, plateau: 1 },
      { id: "g0002", valid: false, score: 0, children: 1, barren: 0, plateau: 1 },
    ]);
  });

  it("parses strategy names for the CLI", () => {
    expect(SelectionStrategyName.parse("greedy")).toBe("greedy");
    expect(SelectionStrategyName.safeParse("roulette").success).toBe(false);
  });
});
