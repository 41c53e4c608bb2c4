/**
 * `cmp`, after the Huxley-Gödel Machine (arXiv:2510.21614): a node's worth as a parent is its
 * clade metaproductivity, estimated from the pooled results of its whole subtree (clade.ts),
 * valid and invalid children alike; the parent is chosen by Thompson sampling: one draw from
 * each eligible node's Beta(1 + successes, 1 + failures), the highest draw wins. HGM also
 * scales both parameters by a temperature that grows over a run and interleaves evaluating a
 * node on more tasks; here every child is evaluated once (racing decides how far), so the
 * temperature stays 1.
 */
import type { SelectionCandidate } from "./candidates.js";
import { betaSample } from "./beta-sample.js";
import type { Rng } from "./rng.js";

/** The Beta posterior of a candidate's clade under a uniform prior. */
export function cladePosterior(c: SelectionCandidate): { alpha: number; beta: number } {
  const successes = Math.max(0, c.clade?.successes ?? 0);
  const failures = Math.max(0, c.clade?.failures ?? 0);
  return { alpha: 1 + successes, beta: 1 + failures };
}

/** Each clade's posterior mean: what cmp's draws are centred on (the weights it reports). */
export function cladeMeans(candidates: readonly SelectionCandidate[]): number[] {
  return candidates.map((c) => {
    const { alpha, beta } = cladePosterior(c);
    return alpha / (alpha + beta);
  });
}

/** Thompson sampling: one Beta draw per clade, the index of the highest. */
export function thompsonDraw(candidates: readonly SelectionCandidate[], rng: Rng): number {
  // Candidates arrive in id order, so the draws (and the RNG state after them) depend on the archive alone.
  let chosen = 0;
  let highest = -Infinity;
  candidates.forEach((c, i) => {
    const { alpha, beta } = cladePosterior(c);
    const x = betaSample(alpha, beta, rng);
    if (x > highest) {
      highest = x;
      chosen = i;
    }
  });
  return chosen;
}
