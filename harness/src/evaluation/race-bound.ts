/**
 * The racing rule: when to check a child's visible evaluation, and an upper confidence bound
 * on its whole visible score from the instances scored so far (scores in [0, 1]).
 *
 * Stage 1 (the task's first `stage1Size` visible instances) comes first; the rest of the
 * visible split follows in an order drawn from the run's evaluation seed, so what has been
 * seen of it is a uniform sample without replacement. The bound is the smaller of two:
 * - certain: every instance not yet scored scores 1;
 * - Hoeffding–Serfling: Serfling's inequality for sampling without replacement (Serfling,
 *   "Probability inequalities for the sum in sampling without replacement", Annals of
 *   Statistics 2(1), 1974): with m of the rest's R instances seen, mean x̄, the rest's mean is
 *   below x̄ + sqrt((1 − (m − 1)/R) · ln(K/δ) / (2m)) but with chance at most δ/K.
 * Checks come after stage 1 and after each batch of the rest, the batches doubling; the K
 * checks with a sample share δ (a union bound), so over a whole race the chance of stopping a
 * child whose whole visible score would have reached its target is at most δ. On a task with a
 * handful of visible instances only the certain bound can bite; on one with dozens or more,
 * Serfling's does.
 */

/** How many of the rest have been scored at each check (0: right after stage 1); the race ends at `restSize`. */
export function raceCheckpoints(stage1Size: number, restSize: number): number[] {
  const first = Math.max(1, stage1Size);
  const points = [0];
  for (let batch = first, seen = first; seen < restSize; batch *= 2, seen += batch) points.push(seen);
  return points;
}

/** What has been scored so far. */
export interface RaceTally {
  /** Sum and count of stage 1's scores. */
  stage1Sum: number;
  stage1Count: number;
  /** Sum of the rest's scores seen so far, how many, and the rest's size. */
  restSum: number;
  restSeen: number;
  restSize: number;
}

/** Upper bound on the whole visible mean, holding with chance at least 1 − delta/checks (1 when certain). */
export function raceUpperBound(t: RaceTally, delta: number, checks: number): number {
  const total = t.stage1Count + t.restSize;
  if (total === 0) return 1;
  const unseen = t.restSize - t.restSeen;
  const certain = (t.stage1Sum + t.restSum + unseen) / total;
  if (t.restSeen === 0) return clamp(certain);
  const finite = 1 - (t.restSeen - 1) / t.restSize;
  const epsilon = Math.sqrt((Math.max(0, finite) * Math.log(Math.max(1, checks) / delta)) / (2 * t.restSeen));
  const restMean = Math.min(1, t.restSum / t.restSeen + epsilon);
  const serfling = (t.stage1Sum + t.restSize * restMean) / total;
  return clamp(Math.min(certain, serfling));
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/** FNV-1a of a string, mixed with a seed: the key that orders the rest of the visible split. */
function orderKey(seed: number, id: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** The instances in an order drawn from `seed` (the same for every child of a run; independent of the input's order). */
export function seededOrder<T extends { id: string }>(instances: readonly T[], seed: number): T[] {
  return [...instances].map((x) => ({ x, k: orderKey(seed, x.id) })).sort((a, b) => a.k - b.k || (a.x.id < b.x.id ? -1 : a.x.id > b.x.id ? 1 : 0)).map((e) => e.x);
}
