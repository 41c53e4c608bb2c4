/**
 * How a code test's expected value is compared with what the candidate's function returned,
 * on the host (the expected value never enters the container). Both sides are decoded from
 * the value wire (sandbox/runner/value-wire.ts), so `undefined`, NaN, a Map or a Set compare
 * as themselves.
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";

/** equal: deep and strict; unordered: the same elements in any order (an array); approx: numbers within the tolerance (absolute, or relative past 1). */
export const Comparison = z.union([z.literal("equal"), z.literal("unordered"), z.strictObject({ approx: z.number().positive().max(1) })]);
export type Comparison = z.infer<typeof Comparison>;

/** A stable text key of a decoded value, for sorting an array's elements. */
function sortKey(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => {
      if (v === undefined) return "\u0000undefined";
      if (typeof v === "bigint") return `\u0000bigint:${v}`;
      if (typeof v === "number" && !Number.isFinite(v)) return `\u0000number:${v}`;
      if (v instanceof Map) return { "\u0000map": [...v] };
      if (v instanceof Set) return { "\u0000set": [...v] };
      if (v !== null && typeof v === "object" && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      return v;
    }) ?? "undefined";
  } catch {
    return "";
  }
}

function approxEqual(got: unknown, want: unknown, tolerance: number, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof want === "number" && typeof got === "number") {
    if (Number.isNaN(want) || Number.isNaN(got)) return Number.isNaN(want) && Number.isNaN(got);
    return Math.abs(got - want) <= tolerance * Math.max(1, Math.abs(want));
  }
  if (Array.isArray(want) && Array.isArray(got)) return want.length === got.length && want.every((w, i) => approxEqual(got[i], w, tolerance, depth + 1));
  if (want !== null && typeof want === "object" && got !== null && typeof got === "object" && !Array.isArray(want) && !Array.isArray(got)) {
    const keys = Object.keys(want);
    return keys.length === Object.keys(got).length && keys.every((k) => Object.hasOwn(got, k) && approxEqual((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], tolerance, depth + 1));
  }
  return isDeepStrictEqual(got, want);
}

/** Whether `got` (the candidate's, decoded) matches `want` (the test's, decoded) under `how`. */
export function valuesMatch(got: unknown, want: unknown, how: Comparison): boolean {
  if (how === "equal") return isDeepStrictEqual(got, want);
  if (how === "unordered") {
    if (!Array.isArray(got) || !Array.isArray(want) || got.length !== want.length) return false;
    const sorted = (xs: unknown[]): unknown[] => xs.map((x) => ({ x, k: sortKey(x) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0)).map((e) => e.x);
    return isDeepStrictEqual(sorted(got), sorted(want));
  }
  return approxEqual(got, want, how.approx);
}
