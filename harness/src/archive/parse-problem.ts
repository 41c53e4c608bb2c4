/** Turning parse failures into one readable reason. */
import { z } from "zod";
import { parseJson, zodIssues } from "../kernel/index.js";

/** A problem found while reading the archive: which file, and why it was skipped. */
export interface ArchiveProblem {
  readonly path: string;
  readonly reason: string;
}

/** "field.path: message; ..." for a zod error, the message for anything else. */
export function formatZodError(error: unknown): string {
  if (error instanceof z.ZodError) return zodIssues(error);
  return error instanceof Error ? error.message : String(error);
}

/** Parses JSON text through a schema: the value, or the reason it is not one, in the archive's words. */
export function parseJsonText<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; reason: string } {
  const read = parseJson(schema, text);
  if (read.ok) return read;
  return { ok: false, reason: read.problem === "not_json" ? `invalid JSON: ${read.reason}` : read.problem === "schema" ? `schema: ${read.reason}` : read.reason };
}
