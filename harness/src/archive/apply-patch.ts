/**
 * Strict patch application: every hunk must match the tree exactly where its header says
 * (no fuzz, no offsets). Replay rebuilds snapshots from the seed with this, so any
 * tampering with a stored patch or snapshot shows up as a failure, not a silent repair.
 */
import { NO_NEWLINE_MARKER } from "./unified-diff.js";
import { splitLines } from "./line-diff.js";
import type { Tree } from "./tree.js";
import { isSafeRelativePath } from "./tree.js";

export interface PatchLine {
  readonly op: " " | "-" | "+";
  /** The line with its "\n", unless the patch marks it as the file's unterminated last line. */
  readonly text: string;
}

export interface PatchHunk {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  readonly lines: readonly PatchLine[];
}

/** One file's section: null paths are /dev/null (an added or a deleted file). */
export interface FilePatch {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly hunks: readonly PatchHunk[];
}

/** Where and why a patch did not parse or apply. */
export interface PatchFailure {
  readonly ok: false;
  /** The file concerned, or null for a patch-level problem. */
  readonly path: string | null;
  /** 1-based hunk number within the file, or null. */
  readonly hunk: number | null;
  readonly reason: string;
}

export type ParsePatchResult = { readonly ok: true; readonly files: FilePatch[] } | PatchFailure;
export type ApplyPatchResult = { readonly ok: true; readonly tree: Map<string, string> } | PatchFailure;

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const IGNORED_HEADER = /^(diff --git |index |new file mode |deleted file mode |old mode |new mode )/;

function fail(path: string | null, hunk: number | null, reason: string): PatchFailure {
  return { ok: false, path, hunk, reason };
}

function headerPath(raw: string, prefix: "a/" | "b/"): string | null | undefined {
  if (raw === "/dev/null") return null;
  return raw.startsWith(prefix) ? raw.slice(prefix.length) : undefined;
}

/** Parses a unified diff as written by diffTrees (and by git for text files). */
export function parsePatch(patch: string): ParsePatchResult {
  const lines = patch.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  else if (lines.length > 0) return fail(null, null, "the patch does not end with a newline (truncated?)");
  const files: FilePatch[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (IGNORED_HEADER.test(line)) {
      i++;
      continue;
    }
    if (!line.startsWith("--- ")) return fail(null, null, `line ${i + 1}: unexpected ${JSON.stringify(line.slice(0, 80))}`);
    const plus = lines[i + 1] ?? "";
    if (!plus.startsWith("+++ ")) return fail(null, null, `line ${i + 2}: expected "+++ " after "--- "`);
    const oldPath = headerPath(line.slice(4), "a/");
    const newPath = headerPath(plus.slice(4), "b/");
    if (oldPath === undefined || newPath === undefined || (oldPath === null && newPath === null)) {
      return fail(null, null, `line ${i + 1}: bad file header`);
    }
    const path = newPath ?? oldPath ?? "";
    i += 2;
    const hunks: PatchHunk[] = [];
    while (i < lines.length && (lines[i] ?? "").startsWith("@@")) {
      const m = HUNK_HEADER.exec(lines[i] ?? "");
      if (m === null) return fail(path, hunks.length + 1, `line ${i + 1}: bad hunk header`);
      const [oldStart, oldCount, newStart, newCount] = [m[1], m[2] ?? "1", m[3], m[4] ?? "1"].map(Number) as [number, number, number, number];
      i++;
      const body: PatchLine[] = [];
      let oldSeen = 0;
      let newSeen = 0;
      while (oldSeen < oldCount || newSeen < newCount) {
        if (i >= lines.length) return fail(path, hunks.length + 1, "the hunk is truncated");
        const raw = lines[i] ?? "";
        const op = raw === "" ? " " : raw[0];
        if (op !== " " && op !== "-" && op !== "+") return fail(path, hunks.length + 1, `line ${i + 1}: not a hunk line`);
        if (op !== "+") oldSeen++;
        if (op !== "-") newSeen++;
        if (oldSeen > oldCount || newSeen > newCount) return fail(path, hunks.length + 1, "the hunk has more lines than its header says");
        i++;
        const noNewline = lines[i] === NO_NEWLINE_MARKER;
        if (noNewline) i++;
        body.push({ op, text: raw.slice(1) + (noNewline ? "" : "\n") });
      }
      hunks.push({ oldStart, oldCount, newStart, newCount, lines: body });
    }
    files.push({ oldPath, newPath, hunks });
  }
  return { ok: true, files };
}

/** Applies a parsed or textual patch to a tree, returning the new tree or the first mismatch. */
export function applyPatch(tree: Tree, patch: string | readonly FilePatch[]): ApplyPatchResult {
  let files: readonly FilePatch[];
  if (typeof patch === "string") {
    const parsed = parsePatch(patch);
    if (!parsed.ok) return parsed;
    files = parsed.files;
  } else files = patch;
  const out = new Map(tree);
  const touched = new Set<string>();
  for (const file of files) {
    const path = file.newPath ?? file.oldPath ?? "";
    if (!isSafeRelativePath(path)) return fail(path, null, "unsafe path");
    if (file.oldPath !== null && file.newPath !== null && file.oldPath !== file.newPath) return fail(path, null, "renames are not supported");
    if (touched.has(path)) return fail(path, null, "the file appears twice in the patch");
    touched.add(path);
    const current = out.get(path);
    if (file.oldPath === null && current !== undefined) return fail(path, null, "the patch adds a file that already exists");
    if (file.oldPath !== null && current === undefined) return fail(path, null, "the patch changes a file that does not exist");
    const result = applyHunks(path, current === undefined ? [] : splitLines(current), file.hunks);
    if (!result.ok) return result;
    if (file.newPath === null) {
      if (result.lines.length > 0) return fail(path, null, "the deletion does not remove the whole file");
      out.delete(path);
    } else out.set(path, result.lines.join(""));
  }
  return { ok: true, tree: out };
}

function applyHunks(path: string, old: readonly string[], hunks: readonly PatchHunk[]): { ok: true; lines: string[] } | PatchFailure {
  const result: string[] = [];
  let cursor = 0;
  for (const [index, hunk] of hunks.entries()) {
    const n = index + 1;
    const at = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
    if (at < cursor || at > old.length) return fail(path, n, `the hunk starts at line ${hunk.oldStart}, outside the file or before the previous hunk`);
    for (; cursor < at; cursor++) result.push(old[cursor] ?? "");
    const expectedNew = hunk.newCount === 0 ? hunk.newStart : hunk.newStart - 1;
    if (result.length !== expectedNew) return fail(path, n, `the hunk header says new line ${hunk.newStart}, the result is at ${result.length + 1}`);
    for (const line of hunk.lines) {
      if (line.op === "+") {
        result.push(line.text);
        continue;
      }
      const found = old[cursor];
      if (found !== line.text) {
        return fail(path, n, `line ${cursor + 1} does not match: expected ${JSON.stringify(line.text)}, found ${found === undefined ? "end of file" : JSON.stringify(found)}`);
      }
      if (line.op === " ") result.push(found);
      cursor++;
    }
  }
  for (; cursor < old.length; cursor++) result.push(old[cursor] ?? "");
  return { ok: true, lines: result };
}
