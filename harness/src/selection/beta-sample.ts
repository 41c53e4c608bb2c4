/**
 * Draws from Beta distributions with the run's seeded RNG, for Thompson sampling (cmp). The
 * number of draws a sample takes varies (rejection), but for one RNG state the result and
 * the state after it are always the same, so a resumed run continues the same sequence.
 */
import type { Rng } from "./rng.js";

/** A standard normal draw (Box–Muller; 1 − u keeps log away from 0). */
function normal(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * A Gamma(shape, 1) draw: Marsaglia and Tsang, "A simple method for generating gamma
 * variables" (ACM TOMS 26(3), 2000), with their boost u^(1/shape) for shapes below 1.
 */
export function gammaSample(shape: number, rng: Rng): number {
  if (!(shape > 0) || !Number.isFinite(shape)) throw new RangeError(`gamma shape must be positive and finite, got ${shape}`);
  if (shape < 1) return gammaSample(shape + 1, rng) * Math.pow(1 - rng.next(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(rng);
    const t = 1 + c * x;
    if (t <= 0) continue;
    const v = t * t * t;
    const u = 1 - rng.next();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A Beta(a, b) draw in [0, 1]: X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b). */
export function betaSample(a: number, b: number, rng: Rng): number {
  const x = gammaSample(a, rng);
  const y = gammaSample(b, rng);
  return x + y === 0 ? 0.5 : x / (x + y);
}
