/**
 * bench:cost's summary of paired seeds (bench/lib/paired-ratio.ts): the three ways of putting
 * "N× fewer" disagree on purpose, and the interval must bracket what the seeds allow.
 */
import { describe, expect, it } from "vitest";
import { formatPairedRatio, pairedRatio } from "../../bench/lib/paired-ratio.js";

describe("a paired ratio over seeds", () => {
  it("gives the mean of the ratios, their geometric mean and the ratio of the totals", () => {
    const r = pairedRatio([
      { base: 40, it: 10 },
      { base: 20, it: 20 },
    ]);
    expect(r.seeds).toBe(2);
    expect(r.meanOfRatios).toBeCloseTo(2.5);
    expect(r.geometricMean).toBeCloseTo(2);
    expect(r.ratioOfTotals).toBeCloseTo(2);
  });

  it("lets one lucky seed pull the mean of ratios up, but not the ratio of the totals", () => {
    const pairs = [...Array.from({ length: 9 }, () => ({ base: 50, it: 50 })), { base: 100, it: 10 }];
    const r = pairedRatio(pairs);
    expect(r.meanOfRatios).toBeCloseTo(1.9);
    expect(r.ratioOfTotals).toBeCloseTo(550 / 460);
    expect(r.geometricMean).toBeLessThan(r.meanOfRatios);
  });

  it("keeps its interval within the seeds' own ratios, around the ratio of the totals, the same for the same pairs", () => {
    const pairs = [28, 106, 78, 40, 81, 44, 122, 125, 37, 75].map((base, i) => ({ base, it: [22, 41, 45, 71, 39, 32, 36, 35, 46, 48][i] as number }));
    const r = pairedRatio(pairs);
    const ratios = pairs.map((p) => p.base / p.it);
    expect(r.interval90[0]).toBeGreaterThanOrEqual(Math.min(...ratios));
    expect(r.interval90[1]).toBeLessThanOrEqual(Math.max(...ratios));
    expect(r.interval90[0]).toBeLessThan(r.ratioOfTotals);
    expect(r.interval90[1]).toBeGreaterThan(r.ratioOfTotals);
    expect(pairedRatio(pairs)).toEqual(r);
    // One seed alone leaves nothing to resample.
    expect(pairedRatio([{ base: 30, it: 10 }]).interval90).toEqual([3, 3]);
  });

  it("refuses no seeds and spending that is not positive", () => {
    expect(() => pairedRatio([])).toThrow(/no paired seeds/);
    expect(() => pairedRatio([{ base: 10, it: 0 }])).toThrow(/positive/);
  });

  it("reads as the ratio of totals first", () => {
    expect(formatPairedRatio({ seeds: 2, meanOfRatios: 2.5, geometricMean: 2, ratioOfTotals: 2, interval90: [1, 4] })).toBe("2.00× (90 %: 1.00–4.00×); per seed: mean 2.50×, geometric 2.00×");
  });
});
