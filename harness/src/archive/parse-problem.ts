/** Turning parse failures into one readable reason. */
import { z } from "zod";

/** A problem found while reading the archive: which file, and why it was skipped. */
export interface ArchiveProblem {
  readonly path: string;
  readonly reason: string;
}

/** "field.path: message; ..." for a zod error, the message for anything else. */
export function formatZodError(error: unknown): string {
  if (error instanceof z.ZodError) {
    return error.issues.map((i) => `${i.path.length === 0 ? "(root)" : i.path.join(".")}: ${i.message}`).join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}

/** Parses JSON text through a schema: the value, or the reason it is not one. */
export function parseJsonText<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; reason: string } {
  if (text.trim() === "") return { ok: false, reason: "empty file" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: `schema: ${formatZodError(parsed.error)}` };
}
