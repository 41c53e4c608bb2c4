/**
 * JSON as models really write it in tool-call arguments: inside a code fence, with trailing
 * commas, single quotes, Python's None/True/False, unquoted keys, raw line breaks in strings,
 * or prose before and after (OpenHands/software-agent-sdk#2488, NousResearch/atropos#478,
 * ml-explore/mlx-lm#1785 document such replies). A repair is made only when one reading is
 * possible, and each one is named so the model can be told; anything else is refused with
 * the reason. A value that ends before it closes is "cut" (a reply stopped at max_tokens,
 * whatever its finish_reason says: vllm-project/vllm#58228).
 *
 * One linear pass, no regular expression over the text: size and nesting are bounded, so
 * hostile text costs at most `maxChars` steps.
 */

/** The most text and nesting one value may have. */
export const JSON_LIMITS = { maxChars: 262_144, maxDepth: 64 } as const;

export type JsonObject = { [key: string]: unknown };

/** A value read from model text: the JSON text it stands for, its end, and what was repaired. */
export type LooseValue =
  | { ok: true; json: string; end: number; repairs: string[] }
  | { ok: false; reason: string; cut: boolean };

/** Tool-call arguments read as an object, or the reason they cannot be. */
export type LooseArguments =
  | { ok: true; value: JsonObject; repairs: string[] }
  | { ok: false; reason: string; cut: boolean };

const WORDS: Record<string, string> = { true: "true", false: "false", null: "null", True: "true", False: "false", None: "null" };

/**
 * Reads one JSON object or array starting at `text[start]` (which must be `{` or `[`).
 * Long on purpose: one pass with its state in a few locals; split, it would only pass that
 * state around.
 */
export function readValue(text: string, start: number): LooseValue {
  const out: string[] = [];
  const repairs = new Set<string>();
  const stack: string[] = [];
  let expectKey = false;
  let i = start;
  while (i < text.length) {
    const c = text[i] ?? "";
    if (c === '"' || c === "'") {
      const s = readString(text, i, c);
      if (s === null) return { ok: false, reason: "a string never closes: the text looks cut off", cut: true };
      for (const r of s.repairs) repairs.add(r);
      out.push(s.json);
      i = s.end;
      continue;
    }
    if (c === "{" || c === "[") {
      if (stack.length >= JSON_LIMITS.maxDepth) return { ok: false, reason: `nested deeper than ${JSON_LIMITS.maxDepth} levels`, cut: false };
      stack.push(c === "{" ? "}" : "]");
      expectKey = c === "{";
      out.push(c);
      i++;
      continue;
    }
    if (c === "}" || c === "]") {
      if (stack.pop() !== c) return { ok: false, reason: `unbalanced "${c}"`, cut: false };
      out.push(c);
      i++;
      if (stack.length === 0) return { ok: true, json: out.join(""), end: i, repairs: [...repairs] };
      expectKey = false;
      continue;
    }
    if (c === ",") {
      const next = skipSpace(text, i + 1);
      if (text[next] === "}" || text[next] === "]") repairs.add("trailing commas");
      else out.push(",");
      expectKey = stack.at(-1) === "}";
      i = next;
      continue;
    }
    if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      i = skipComment(text, i);
      repairs.add("comments");
      continue;
    }
    if (isWordStart(c)) {
      const end = wordEnd(text, i);
      const word = text.slice(i, end);
      const known = WORDS[word];
      if (expectKey) {
        out.push(JSON.stringify(word));
        repairs.add("unquoted keys");
      } else if (known !== undefined) {
        if (known !== word) repairs.add("Python literals (True/False/None)");
        out.push(known);
      } else {
        return { ok: false, reason: `unexpected word "${word.slice(0, 40)}" where a value belongs`, cut: false };
      }
      i = end;
      continue;
    }
    if (c === ":") expectKey = false;
    out.push(c);
    i++;
  }
  return { ok: false, reason: `the value ends before it closes (${stack.length} open bracket${stack.length === 1 ? "" : "s"}): it looks cut off`, cut: true };
}

/** Reads tool-call arguments: an object, possibly fenced or wrapped in prose. */
export function readArguments(raw: string): LooseArguments {
  if (raw.length > JSON_LIMITS.maxChars) return { ok: false, reason: `arguments of ${raw.length} characters (at most ${JSON_LIMITS.maxChars})`, cut: false };
  const trimmed = raw.trim();
  if (trimmed === "") return { ok: true, value: {}, repairs: [] };
  const strict = strictObject(trimmed);
  if (strict !== null) return { ok: true, value: strict, repairs: [] };
  const repairs: string[] = [];
  let text = trimmed;
  if (text.startsWith('"')) {
    // A JSON string holding the JSON (some servers encode the arguments twice).
    const inner = parseJson(text);
    if (typeof inner === "string") {
      const again = readArguments(inner);
      return again.ok ? { ...again, repairs: ["arguments encoded twice as a JSON string", ...again.repairs] } : again;
    }
  }
  if (text.startsWith("```")) {
    const firstBreak = text.indexOf("\n");
    text = firstBreak === -1 ? "" : text.slice(firstBreak + 1);
    repairs.push("a code fence around the JSON");
  }
  const open = text.indexOf("{");
  if (open === -1) return { ok: false, reason: "no JSON object in the arguments", cut: false };
  if (text.slice(0, open).trim() !== "") repairs.push("text before the JSON");
  const read = readValue(text, open);
  if (!read.ok) return read;
  let rest = text.slice(read.end).trim();
  if (rest.startsWith("```")) rest = rest.slice(3).trim();
  if (rest.startsWith("{")) return { ok: false, reason: "two JSON objects where one belongs: which one is meant is not clear", cut: false };
  if (rest !== "") repairs.push("text after the JSON");
  const value = parseJson(read.json);
  if (value === undefined) return { ok: false, reason: "not JSON even after repairs", cut: false };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, reason: "the arguments must be a JSON object", cut: false };
  return { ok: true, value: value as JsonObject, repairs: [...repairs, ...read.repairs] };
}

/** The object, when `text` is already strict JSON for one. */
function strictObject(text: string): JsonObject | null {
  if (!text.startsWith("{")) return null;
  const value = parseJson(text);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A quoted string from `start` as JSON text; null when it never closes. */
function readString(text: string, start: number, quote: string): { json: string; end: number; repairs: string[] } | null {
  const out: string[] = ['"'];
  const repairs: string[] = quote === "'" ? ["single-quoted strings"] : [];
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i] ?? "";
    if (c === "\\") {
      const next = text[i + 1];
      if (next === undefined) return null;
      // \' is not a JSON escape; the quote it stands for needs none inside double quotes.
      out.push(next === "'" ? "'" : `\\${next}`);
      i++;
    } else if (c === quote) {
      out.push('"');
      return { json: out.join(""), end: i + 1, repairs };
    } else if (c === '"') {
      out.push('\\"');
    } else if (c === "\n" || c === "\r" || c === "\t") {
      out.push(c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t");
      if (!repairs.includes("raw line breaks inside strings")) repairs.push("raw line breaks inside strings");
    } else {
      out.push(c);
    }
  }
  return null;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t")) i++;
  return i;
}

function skipComment(text: string, at: number): number {
  if (text[at + 1] === "/") {
    const end = text.indexOf("\n", at);
    return end === -1 ? text.length : end;
  }
  const end = text.indexOf("*/", at + 2);
  return end === -1 ? text.length : end + 2;
}

function isWordStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || c === "$";
}

function wordEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && (isWordStart(text[i] ?? "") || ((text[i] ?? "") >= "0" && (text[i] ?? "") <= "9"))) i++;
  return i;
}
