/** Choosing a parent: the strategy's weights, normalised, sampled with the seeded RNG. */
import type { SelectionCandidate } from "./candidates.js";
import { eligible } from "./candidates.js";
import type { Rng } from "./rng.js";
import type { SelectionStrategy } from "./strategies.js";

/**
 * The probability of each eligible candidate (valid ones only, in id order). Weights that
 * sum to zero or are not finite (e.g. every exp(−(c/8)³) underflowed) fall back to uniform.
 * For a drawing strategy (cmp) these are its normalised weights, a summary of what it draws
 * from, not the odds of its draw.
 */
export function selectionProbabilities(
  strategy: SelectionStrategy,
  candidates: readonly SelectionCandidate[],
): Map<string, number> {
  const cs = eligible(candidates);
  const raw = strategy.weights(cs).map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const total = raw.reduce((s, w) => s + w, 0);
  const weights = total > 0 && Number.isFinite(total) ? raw.map((w) => w / total) : cs.map(() => 1 / cs.length);
  return new Map(cs.map((c, i) => [c.id, weights[i] ?? 0]));
}

/**
 * The chosen parent id, or null when no candidate is valid. Weighted stochastic strategies
 * draw exactly one number from `rng`; a drawing strategy (cmp) draws as its samples need,
 * always the same for the same archive and RNG state; deterministic ones draw none. So the
 * RNG sequence of a run depends only on the archive and the selections it made.
 */
export function selectParent(
  strategy: SelectionStrategy,
  candidates: readonly SelectionCandidate[],
  rng: Rng,
): string | null {
  if (strategy.draw !== undefined) {
    const cs = eligible(candidates);
    return cs.length === 0 ? null : (cs[strategy.draw(cs, rng)]?.id ?? null);
  }
  const probabilities = [...selectionProbabilities(strategy, candidates)];
  if (probabilities.length === 0) return null;
  if (!strategy.stochastic) {
    const top = probabilities.reduce((a, b) => (b[1] > a[1] ? b : a));
    return top[0];
  }
  const r = rng.next();
  let cumulative = 0;
  let lastPositive: string | null = null;
  for (const [id, p] of probabilities) {
    if (p <= 0) continue;
    cumulative += p;
    lastPositive = id;
    if (r < cumulative) return id;
  }
  // Rounding can leave the cumulative sum a hair under 1.
  return lastPositive;
}
