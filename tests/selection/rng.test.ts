import { describe, expect, it } from "vitest";
import { createRng, restoreRng, RngState } from "../../harness/src/selection/index.js";

describe("seeded RNG", () => {
  it("gives the same sequence for the same seed and different ones for different seeds", () => {
    const draw = (seed: number): number[] => {
      const rng = createRng(seed);
      return Array.from({ length: 50 }, () => rng.nextUint32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw(0)).not.toEqual(draw(2 ** 32));
  });

  it("continues the same sequence after its JSON state is saved and restored", () => {
    const rng = createRng(7);
    for (let i = 0; i < 1234; i++) rng.next();
    const saved = JSON.parse(JSON.stringify(rng.state())) as unknown;
    const expected = Array.from({ length: 100 }, () => rng.next());
    const restored = restoreRng(RngState.parse(saved));
    expect(Array.from({ length: 100 }, () => restored.next())).toEqual(expected);
  });

  it("hands out a copy of its state, not a live view", () => {
    const rng = createRng(1);
    const state = rng.state();
    rng.next();
    expect(rng.state()).not.toEqual(state);
  });

  it("rejects a malformed state", () => {
    expect(() => restoreRng({ algorithm: "sfc32", state: [1, 2, 3, -1] } as never)).toThrow();
    expect(() => restoreRng({ algorithm: "mt", state: [1, 2, 3, 4] } as never)).toThrow();
  });

  it("is close to uniform in [0, 1) (chi-square over 20 bins)", () => {
    const rng = createRng(2024);
    const bins = new Array<number>(20).fill(0);
    const n = 100_000;
    let outOfRange = 0;
    for (let i = 0; i < n; i++) {
      const x = rng.next();
      if (!(x >= 0 && x < 1)) outOfRange++;
      else bins[Math.floor(x * 20)]! += 1;
    }
    expect(outOfRange).toBe(0);
    const expected = n / 20;
    const chi2 = bins.reduce((s, b) => s + (b - expected) ** 2 / expected, 0);
    // 19 degrees of freedom: the 99.9th percentile is 43.8.
    expect(chi2).toBeLessThan(43.8);
  });

  it("nextInt stays in range", () => {
    const rng = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(rng.nextInt(6));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(() => rng.nextInt(0)).toThrow();
  });
});
