/** Generation ids: "g" and at least four digits, allocated in creation order. */
import { z } from "zod";

export const GenerationId = z.string().regex(/^g\d{4,}$/, 'a generation id looks like "g0007"');
export type GenerationId = z.infer<typeof GenerationId>;

/** The id of the n-th generation (0 is the seed). */
export function formatGenerationId(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`generation number must be a non-negative integer, got ${n}`);
  return `g${String(n).padStart(4, "0")}`;
}

/** The number of a generation id, or null when the text is not one. */
export function parseGenerationId(id: string): number | null {
  const digits = /^g(\d{4,})$/.exec(id)?.[1];
  return digits === undefined ? null : Number(digits);
}

/** Run ids are folder names: no separators, no leading dot. */
export const RunId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, "a run id is a plain folder name");
export type RunId = z.infer<typeof RunId>;

/** When records are written: ISO 8601 in UTC, as `new Date().toISOString()` gives. */
export const Timestamp = z.iso.datetime();
