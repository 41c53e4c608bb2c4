/**
 * JSON through a zod schema, the one way: from text or from a file, the value or what is
 * wrong with it (never a throw): the kind of problem and the bare reason (the parser's or
 * the schema's words), so each caller only says what a problem means for it (a refused
 * option, a skipped record, a task problem).
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";

export type JsonRead<T> =
  | { ok: true; value: T }
  /** missing: no such file; unreadable: any other read error; not_json; schema: JSON of the wrong shape. */
  | { ok: false; problem: "missing" | "unreadable" | "empty" | "not_json" | "schema"; reason: string };

/** "field.path: message", one per issue of a zod error. */
export function zodIssueLines(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length === 0 ? "(top level)" : i.path.join(".")}: ${i.message}`);
}

/** "field.path: message; ..." for a zod error. */
export function zodIssues(error: z.ZodError): string {
  return zodIssueLines(error).join("; ");
}

/** JSON text through `schema`. */
export function parseJson<T>(schema: z.ZodType<T>, text: string): JsonRead<T> {
  if (text.trim() === "") return { ok: false, problem: "empty", reason: "empty file" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: "not_json", reason: error instanceof Error ? error.message : String(error) };
  }
  // A value nested thousands deep overflows the recursive check: it is no value of the schema.
  try {
    const parsed = schema.safeParse(json);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: "schema", reason: zodIssues(parsed.error) };
  } catch {
    return { ok: false, problem: "schema", reason: "nested too deep to check" };
  }
}

/** A JSON file through `schema`. */
export async function readJson<T>(schema: z.ZodType<T>, path: string): Promise<JsonRead<T>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { ok: false, problem: missing ? "missing" : "unreadable", reason: missing ? "missing file" : (error as Error).message };
  }
  return parseJson(schema, text);
}
