/**
 * Edits written as text, in the formats models actually write (aider's edit formats,
 * https://aider.chat/docs/more/edit-formats.html): SEARCH/REPLACE blocks, whole files in
 * fences under their path, and unified diffs. Every one becomes an EditBlock (edits.ts), so
 * the same exact-once application and the same failure reasons serve all of them, whether
 * the model was asked for that format or not, with tools offered or not.
 *
 * Line-based, one forward pass per format, the reply and the blocks capped: hostile text
 * (unbalanced fences, a million markers) costs a bounded amount of work.
 */
import { applyBlocks, cleanPath, MAX_BLOCKS, parseBlocks, safePath, type EditBlock, type EditResult } from "./edits.js";
import { JSON_LIMITS } from "./loose-json.js";

export type EditFormat = "search-replace" | "unified-diff" | "whole-file";

export interface TextEdits {
  blocks: EditBlock[];
  /** The formats the blocks came in, each once, in the order found. */
  formats: EditFormat[];
  /** What could not be read, and why (an unclosed fence, a hunk without context...). */
  problems: string[];
}

const TREE_DIRS = ["task/", "meta/", "tester/"];
const FILE_EXTENSIONS = [".ts", ".json", ".md"];

/** Every edit written in `reply`; `paths` are the files of the tree (whole files must name one, or a new file in it). */
export function editsInText(reply: string, paths: ReadonlySet<string>): TextEdits {
  const problems: string[] = [];
  let text = reply.replace(/\r\n/g, "\n");
  if (text.length > JSON_LIMITS.maxChars) {
    problems.push(`the reply has ${text.length} characters; only the first ${JSON_LIMITS.maxChars} were read`);
    text = text.slice(0, JSON_LIMITS.maxChars);
  }
  const formats: EditFormat[] = [];
  const searchReplace = parseBlocks(text);
  const blocks: EditBlock[] = [...searchReplace.blocks];
  problems.push(...searchReplace.malformed);
  if (searchReplace.blocks.length > 0) formats.push("search-replace");
  const lines = text.split("\n");
  const diffs = diffBlocks(lines, problems);
  if (diffs.length > 0) formats.push("unified-diff");
  const wholes = wholeFiles(lines, paths, problems);
  if (wholes.length > 0) formats.push("whole-file");
  for (const block of [...diffs, ...wholes]) {
    if (blocks.length >= MAX_BLOCKS) break;
    blocks.push({ ...block, index: blocks.length + 1 });
  }
  return { blocks, formats, problems: problems.slice(0, 16) };
}

/** Applies blocks like applyBlocks, but refuses a "whole file" that is plainly a snippet of a longer file. */
export function applyEdits(files: Map<string, string>, blocks: readonly EditBlock[]): EditResult[] {
  return blocks.map((block) => {
    const current = files.get(block.path);
    if (block.search.trim() === "" && current !== undefined && looksLikeSnippet(block.replace, current)) {
      const shown = block.replace.split("\n").length;
      return { block, ok: false, reason: `the code under ${block.path} has ${shown} lines and the file ${current.split("\n").length}: it looks like a snippet, not the whole file; send SEARCH/REPLACE blocks for the lines that change` };
    }
    return applyBlocks(files, [block])[0] ?? { block, ok: false, reason: "not applied" };
  });
}

function looksLikeSnippet(replacement: string, current: string): boolean {
  const before = current.split("\n").length;
  return before > 20 && replacement.split("\n").length * 2 < before;
}

/** Is `line` a file path of the tree (or a new file in one of its folders)? */
function treePath(line: string, paths: ReadonlySet<string>): string | null {
  if (line.length > 300) return null;
  const path = cleanPath(line).replace(/^(?:a|b)\//, "");
  if (path.includes(" ") || !safePath(path)) return null;
  if (paths.has(path)) return path;
  return TREE_DIRS.some((d) => path.startsWith(d)) && FILE_EXTENSIONS.some((e) => path.endsWith(e)) ? path : null;
}

type Block = Omit<EditBlock, "index">;

/** `--- a/x` / `+++ b/x` / `@@ … @@` hunks as blocks: context and removed lines are searched, context and added lines replace them. */
function diffBlocks(lines: readonly string[], problems: string[]): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length && blocks.length < MAX_BLOCKS; i++) {
    const minus = lines[i] ?? "";
    const plus = lines[i + 1] ?? "";
    if (!minus.startsWith("--- ") || !plus.startsWith("+++ ")) continue;
    const target = diffPath(plus);
    const created = diffPath(minus) === "/dev/null";
    i += 2;
    const hunks: { search: string[]; replace: string[] }[] = [];
    while (i < lines.length && (lines[i] ?? "").startsWith("@@")) {
      const hunk = { search: [] as string[], replace: [] as string[] };
      for (i++; i < lines.length && inHunk(lines[i] ?? "", lines[i + 1]); i++) {
        const line = lines[i] ?? "";
        const body = line.slice(1);
        if (line.startsWith("-")) hunk.search.push(body);
        else if (line.startsWith("+")) hunk.replace.push(body);
        else if (!line.startsWith("\\")) {
          hunk.search.push(body);
          hunk.replace.push(body);
        }
      }
      hunks.push(trimBlankContext(hunk));
    }
    i--;
    if (target === "/dev/null") problems.push(`a diff deletes ${diffPath(minus)}; deleting files is not done from a diff`);
    else if (!safePath(target)) problems.push(`a diff names "${target.slice(0, 100)}", which is not a relative path inside the agent tree`);
    else if (created) blocks.push({ path: target, search: "", replace: hunks.flatMap((h) => h.replace).join("\n") });
    else blocks.push(...hunkBlocks(target, hunks, problems));
  }
  return blocks;
}

function hunkBlocks(path: string, hunks: { search: string[]; replace: string[] }[], problems: string[]): Block[] {
  return hunks.flatMap((h, n) => {
    if (h.search.every((l) => l.trim() === "")) {
      problems.push(`hunk ${n + 1} of ${path} adds lines without any context line, so where they go is not known; include the lines around them`);
      return [];
    }
    return [{ path, search: h.search.join("\n"), replace: h.replace.join("\n") }];
  });
}

/** A hunk goes on while lines carry a diff prefix (an empty line is an empty context line, as models often drop its space). */
function inHunk(line: string, next: string | undefined): boolean {
  if (line.startsWith("@@") || line.startsWith("```")) return false;
  if (line.startsWith("--- ") && next?.startsWith("+++ ") === true) return false;
  return line === "" || line.startsWith(" ") || line.startsWith("-") || line.startsWith("+") || line.startsWith("\\");
}

/** Blank lines at a hunk's edges are usually the gap before a fence or prose, not context. */
function trimBlankContext(h: { search: string[]; replace: string[] }): { search: string[]; replace: string[] } {
  const search = [...h.search];
  const replace = [...h.replace];
  while (search.length > 0 && replace.length > 0 && search.at(-1) === "" && replace.at(-1) === "") {
    search.pop();
    replace.pop();
  }
  return { search, replace };
}

function diffPath(header: string): string {
  const raw = header.slice(4).split("\t")[0]?.trim() ?? "";
  return raw.replace(/^(?:a|b)\//, "");
}

/** A fenced block right under a line naming a file of the tree (or with the path on the fence line) is that whole file. */
function wholeFiles(lines: readonly string[], paths: ReadonlySet<string>, problems: string[]): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length && blocks.length < MAX_BLOCKS; i++) {
    const fence = (lines[i] ?? "").trim();
    if (!fence.startsWith("```")) continue;
    const close = closingFence(lines, i + 1);
    const path = fencePath(lines, i, paths);
    if (close === -1) {
      if (path !== null) problems.push(`the fenced text under ${path} never closes (was the reply cut?); it was not applied`);
      return blocks;
    }
    const body = lines.slice(i + 1, close);
    i = close;
    if (path === null || fence.startsWith("```diff") || body.some(isEditMarker)) continue;
    blocks.push({ path, search: "", replace: body.join("\n") });
  }
  return blocks;
}

function closingFence(lines: readonly string[], from: number): number {
  for (let j = from; j < lines.length; j++) if ((lines[j] ?? "").trim() === "```") return j;
  return -1;
}

/** The path a fence at line `at` belongs to: on the fence line after the language, or on the line (or two) before it. */
function fencePath(lines: readonly string[], at: number, paths: ReadonlySet<string>): string | null {
  const info = (lines[at] ?? "").trim().slice(3).trim().split(/\s+/);
  for (const word of info) {
    const path = word.includes("/") ? treePath(word, paths) : null;
    if (path !== null) return path;
  }
  for (let j = at - 1; j >= Math.max(0, at - 2); j--) {
    const line = (lines[j] ?? "").trim();
    if (line === "") continue;
    return treePath(line, paths);
  }
  return null;
}

function isEditMarker(line: string): boolean {
  return /^<{5,9} ?SEARCH\s*$/.test(line) || line.startsWith("@@ ") || (line.startsWith("+++ ") && line.length < 300);
}
