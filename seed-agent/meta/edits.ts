/**
 * SEARCH/REPLACE edits: parsing them from a model's reply and applying them to an in-memory
 * copy of the tree. A block that does not match exactly once is a failure with a reason the
 * model can act on (nearest line, occurrence count); none is skipped silently.
 */

/** One edit: `search` empty means "write the whole file" (create or rewrite). */
export interface EditBlock {
  index: number;
  path: string;
  search: string;
  replace: string;
}

export type EditResult = { block: EditBlock; ok: true } | { block: EditBlock; ok: false; reason: string };

const SEARCH = /^<{5,9} ?SEARCH\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const REPLACE = /^>{5,9} ?REPLACE\s*$/;

/** The path named on a line before a block, without markdown decoration. */
export function cleanPath(line: string): string {
  return line.trim().replace(/^#+\s*/, "").replace(/^(?:file|path)\s*:\s*/i, "").replace(/^[`*"']+|[`*"':]+$/g, "").trim();
}

/** Blocks read from one reply at most: the rest are named as malformed, never read (a hostile reply can hold millions). */
export const MAX_BLOCKS = 64;

/** The first line at or after `from` that matches, or -1 (one forward scan per block keeps parsing linear). */
function lineFrom(lines: readonly string[], from: number, pattern: RegExp): number {
  for (let j = from; j < lines.length; j++) if (pattern.test(lines[j] ?? "")) return j;
  return -1;
}

/** Every SEARCH/REPLACE block of a reply, in order; unterminated blocks are returned as malformed. */
export function parseBlocks(reply: string): { blocks: EditBlock[]; malformed: string[] } {
  const lines = reply.replace(/\r\n/g, "\n").split("\n");
  const blocks: EditBlock[] = [];
  const malformed: string[] = [];
  let path = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!SEARCH.test(line)) {
      if (line.trim() !== "" && !line.trim().startsWith("```")) path = line.length > 300 ? "" : cleanPath(line);
      continue;
    }
    const index = blocks.length + malformed.length + 1;
    if (blocks.length >= MAX_BLOCKS) {
      malformed.push(`more than ${MAX_BLOCKS} blocks: the rest of the reply was not read`);
      break;
    }
    const divider = lineFrom(lines, i + 1, DIVIDER);
    const end = divider === -1 ? -1 : lineFrom(lines, divider + 1, REPLACE);
    if (divider === -1 || end === -1) {
      malformed.push(`block ${index} (${path || "no path"}): missing ${divider === -1 ? "=======" : ">>>>>>> REPLACE"} line`);
      break;
    }
    blocks.push({ index, path, search: lines.slice(i + 1, divider).join("\n"), replace: lines.slice(divider + 1, end).join("\n") });
    i = end;
  }
  return { blocks, malformed };
}

function bigrams(s: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) grams.set(s.slice(i, i + 2), (grams.get(s.slice(i, i + 2)) ?? 0) + 1);
  return grams;
}

/** Dice similarity of two trimmed lines, in [0, 1]. */
function similarity(a: string, b: string): number {
  const x = bigrams(a.trim());
  const y = bigrams(b.trim());
  let common = 0;
  let total = 0;
  for (const [g, n] of x) { common += Math.min(n, y.get(g) ?? 0); total += n; }
  for (const n of y.values()) total += n;
  return total === 0 ? (a.trim() === b.trim() ? 1 : 0) : (2 * common) / total;
}

/** Why `search` is not found in `text`, with the nearest line so the model can copy it exactly. */
export function explainMiss(text: string, search: string): string {
  const squash = (s: string): string => s.replace(/\s+/g, " ").trim();
  if (squash(text).includes(squash(search))) return "SEARCH text matches only if whitespace is ignored; copy the indentation and line breaks exactly";
  const first = search.split("\n").find((l) => l.trim() !== "") ?? "";
  const lines = text.split("\n");
  let best = -1;
  let bestScore = 0;
  lines.forEach((l, i) => { const s = similarity(first, l); if (s > bestScore) { bestScore = s; best = i; } });
  if (best === -1) return "SEARCH text not found, and no line of the file resembles its first line";
  const context = lines.slice(Math.max(0, best - 3), best + 4).map((l, i) => `${Math.max(0, best - 3) + i + 1}| ${l}`).join("\n");
  return `SEARCH text not found; its first line is closest to line ${best + 1}: \`${(lines[best] ?? "").trim()}\`\nCurrent text there:\n${context}`;
}

function occurrences(text: string, search: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + 1)) at.push(i);
  return at;
}

/** Paths the model may write: relative, inside the tree, no `..`. */
export function safePath(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.includes("\\") && path.split("/").every((p) => p !== "" && p !== "." && p !== "..");
}

/** Applies blocks in order to `files` (path → text, mutated in place); one result per block. */
export function applyBlocks(files: Map<string, string>, blocks: readonly EditBlock[]): EditResult[] {
  return blocks.map((block): EditResult => {
    if (!safePath(block.path)) return { block, ok: false, reason: `"${block.path}" is not a relative path inside the agent tree; put the file path on the line before <<<<<<< SEARCH` };
    if (block.search.trim() === "") {
      files.set(block.path, block.replace.endsWith("\n") ? block.replace : `${block.replace}\n`);
      return { block, ok: true };
    }
    const text = files.get(block.path);
    if (text === undefined) return { block, ok: false, reason: `file ${block.path} does not exist; existing files: ${[...files.keys()].join(", ")}` };
    if (block.search === block.replace) return { block, ok: false, reason: "SEARCH and REPLACE are identical, so it changes nothing" };
    const at = occurrences(text, block.search);
    if (at.length === 1) {
      const start = at[0] ?? 0;
      files.set(block.path, text.slice(0, start) + block.replace + text.slice(start + block.search.length));
      return { block, ok: true };
    }
    if (at.length === 0) return { block, ok: false, reason: explainMiss(text, block.search) };
    const lines = at.map((i) => text.slice(0, i).split("\n").length);
    return { block, ok: false, reason: `SEARCH text occurs ${at.length} times (lines ${lines.join(", ")}); include more surrounding lines so it occurs exactly once` };
  });
}
