/**
 * How much less one configuration spends than another over paired seeds, three ways, because
 * they disagree: the mean of the per-seed ratios (what bench:cost printed first) is pulled up by
 * a few lucky seeds (a seed at 4× weighs as much as four at 1×), the geometric mean is not, and
 * the ratio of the totals (mean containers against mean containers) weighs every container
 * alike. The interval is a paired bootstrap of the ratio of totals over seeds: how far the
 * figure could move with other seeds of the same runs, so a tenth's change is not read as news.
 */
import { createRng } from "../../harness/src/selection/index.js";

/** One seed's spending: the baseline's and the configuration's (both > 0). */
export interface PairedSpend {
  base: number;
  it: number;
}

export interface PairedRatio {
  seeds: number;
  /** Mean over seeds of base ÷ it. */
  meanOfRatios: number;
  /** Geometric mean over seeds of base ÷ it. */
  geometricMean: number;
  /** Σ base ÷ Σ it. */
  ratioOfTotals: number;
  /** The 5th and 95th percentiles of the ratio of totals over `draws` resamplings of the seeds. */
  interval90: [number, number];
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** The three summaries and the interval; the resampling is seeded, so the same pairs give the same interval. */
export function pairedRatio(pairs: readonly PairedSpend[], draws = 4_000, seed = 1): PairedRatio {
  if (pairs.length === 0) throw new RangeError("no paired seeds");
  for (const p of pairs) if (!(p.base > 0 && p.it > 0)) throw new RangeError(`spending must be positive, not ${p.base} and ${p.it}`);
  const ratios = pairs.map((p) => p.base / p.it);
  const rng = createRng(seed);
  const resampled: number[] = [];
  for (let d = 0; d < draws; d++) {
    let base = 0;
    let it = 0;
    for (let i = 0; i < pairs.length; i++) {
      const p = pairs[rng.nextInt(pairs.length)] as PairedSpend;
      base += p.base;
      it += p.it;
    }
    resampled.push(base / it);
  }
  resampled.sort((a, b) => a - b);
  const at = (q: number): number => resampled[Math.min(draws - 1, Math.floor(q * draws))] as number;
  return {
    seeds: pairs.length,
    meanOfRatios: sum(ratios) / ratios.length,
    geometricMean: Math.exp(sum(ratios.map(Math.log)) / ratios.length),
    ratioOfTotals: sum(pairs.map((p) => p.base)) / sum(pairs.map((p) => p.it)),
    interval90: [at(0.05), at(0.95)],
  };
}

/** "1.76× (90 %: 1.31–2.40); per seed: mean 1.89×, geometric 1.64×". */
export function formatPairedRatio(r: PairedRatio): string {
  const x = (v: number): string => `${v.toFixed(2)}×`;
  return `${x(r.ratioOfTotals)} (90 %: ${r.interval90[0].toFixed(2)}–${x(r.interval90[1])}); per seed: mean ${x(r.meanOfRatios)}, geometric ${x(r.geometricMean)}`;
}
