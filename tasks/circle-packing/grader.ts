/**
 * Trusted grader of circle-packing: one call per instance, input `{ n }`, output
 * `{ circles: [[x, y, r], ...] }` with exactly n circles inside the unit square, pairwise
 * disjoint (tolerance 1e-9). Score = sum of radii / the instance's reference, in [0, 1].
 */
import { defineGrader, describeFailure, z } from "evolve/task";

export const TOLERANCE = 1e-9;

const Instance = z.object({
  id: z.string().min(1),
  n: z.number().int().min(1).max(200),
  /** The sum of radii that scores 1 (see README for where each comes from). */
  reference: z.number().positive(),
  referenceSource: z.string().min(1),
});
type Instance = z.infer<typeof Instance>;

const Circle = z.tuple([z.number(), z.number(), z.number()]);

type Check = { ok: true; sum: number; circles: [number, number, number][] } | { ok: false; reason: string };

/** Checks a hostile answer; the first violated constraint is named. */
export function checkPacking(value: unknown, n: number): Check {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, reason: "output must be an object { circles: [[x, y, r], ...] }" };
  const raw = (value as { circles?: unknown }).circles;
  if (raw === undefined) return { ok: false, reason: "output has no `circles` field" };
  if (!Array.isArray(raw)) return { ok: false, reason: "`circles` must be an array" };
  // Length first: a huge array is rejected before any per-element work.
  if (raw.length !== n) return { ok: false, reason: `expected ${n} circles, got ${raw.length}` };
  const circles: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    const parsed = Circle.safeParse(raw[i]);
    if (!parsed.success) return { ok: false, reason: `circle ${i} must be [x, y, r] of three numbers` };
    const [x, y, r] = parsed.data;
    if (![x, y, r].every(Number.isFinite)) return { ok: false, reason: `circle ${i} has a non-finite number` };
    if (r < 0) return { ok: false, reason: `circle ${i} has a negative radius ${r}` };
    if (x - r < -TOLERANCE || x + r > 1 + TOLERANCE || y - r < -TOLERANCE || y + r > 1 + TOLERANCE)
      return { ok: false, reason: `containment: circle ${i} (${x}, ${y}, r=${r}) leaves the unit square` };
    circles.push([x, y, r]);
  }
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const a = circles[i]!, b = circles[j]!;
      const gap = Math.hypot(a[0] - b[0], a[1] - b[1]) - (a[2] + b[2]);
      if (gap < -TOLERANCE)
        return { ok: false, reason: `overlap: circles ${i} and ${j} overlap by ${(-gap).toExponential(3)}` };
    }
  return { ok: true, sum: circles.reduce((s, c) => s + c[2], 0), circles };
}

export const grader = defineGrader<Instance>({
  instanceSchema: Instance,
  async grade(instance, solve) {
    const reply = await solve({ n: instance.n });
    if (!reply.ok) return { score: 0, value: null, feedback: `no answer: ${describeFailure(reply)}` };
    const check = checkPacking(reply.value, instance.n);
    if (!check.ok) return { score: 0, value: null, feedback: `invalid packing: ${check.reason}` };
    const score = Math.min(1, Math.max(0, check.sum / instance.reference));
    return {
      score,
      value: check.sum,
      feedback: `n=${instance.n}: sum of radii ${check.sum.toFixed(6)} vs reference ${instance.reference} (${(100 * score).toFixed(2)}%)`,
      artifact: { n: instance.n, circles: check.circles },
    };
  },
});
