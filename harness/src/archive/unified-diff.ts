/**
 * Unified diffs of whole agent trees, in the format git and patch(1) read: a
 * "diff --git" header per file, "--- a/path" / "+++ b/path" (or /dev/null for added and
 * deleted files), and "@@" hunks with three lines of context.
 */
import { EvolveError } from "../kernel/index.js";
import type { ChangedFile } from "./generation-record.js";
import type { DiffBudget, Edit } from "./line-diff.js";
import { diffLines, MAX_DIFF_WORK, splitLines } from "./line-diff.js";
import type { Tree } from "./tree.js";
import { comparePaths } from "./tree.js";

export const CONTEXT_LINES = 3;
export const NO_NEWLINE_MARKER = "\\ No newline at end of file";

/** A patch and the per-file summary that goes into generation.json. */
export interface TreeDiff {
  readonly patch: string;
  readonly changes: ChangedFile[];
}

/** The unified diff turning tree `from` into tree `to` (an empty map for "nothing"). */
export function diffTrees(from: Tree, to: Tree): TreeDiff {
  const paths = [...new Set([...from.keys(), ...to.keys()])].sort(comparePaths);
  let patch = "";
  const changes: ChangedFile[] = [];
  const budget: DiffBudget = { left: MAX_DIFF_WORK };
  for (const path of paths) {
    if (/[\n\r\t]/.test(path)) throw new EvolveError("internal", `cannot diff a path with control characters: ${JSON.stringify(path)}`);
    const before = from.get(path);
    const after = to.get(path);
    if (before === after) continue;
    const diff = diffFile(path, before ?? null, after ?? null, budget);
    patch += diff.text;
    changes.push(diff.change);
  }
  return { patch, changes };
}

/** The diff section of one file; null text stands for "no such file". */
export function diffFile(path: string, before: string | null, after: string | null, budget?: DiffBudget): { text: string; change: ChangedFile } {
  const a = before === null ? [] : splitLines(before);
  const b = after === null ? [] : splitLines(after);
  const edits = diffLines(a, b, budget);
  let text = `diff --git a/${path} b/${path}\n`;
  if (before === null) text += "new file mode 100644\n";
  if (after === null) text += "deleted file mode 100644\n";
  text += `--- ${before === null ? "/dev/null" : `a/${path}`}\n`;
  text += `+++ ${after === null ? "/dev/null" : `b/${path}`}\n`;
  for (const hunk of groupHunks(edits)) text += formatHunk(hunk, a, b);
  const change: ChangedFile = {
    path,
    change: before === null ? "added" : after === null ? "deleted" : "modified",
    additions: edits.filter((e) => e.op === "insert").length,
    deletions: edits.filter((e) => e.op === "delete").length,
  };
  return { text, change };
}

/** A run of edits plus how many old and new lines precede it. */
interface Hunk {
  readonly edits: readonly Edit[];
  readonly oldBefore: number;
  readonly newBefore: number;
}

/** Splits an edit script into hunks: changes with their context, close ones merged. */
function groupHunks(edits: readonly Edit[]): Hunk[] {
  const changed = edits.flatMap((e, i) => (e.op === "equal" ? [] : [i]));
  const hunks: Hunk[] = [];
  // Old and new lines before edits[counted], advanced as hunks move down the script.
  let counted = 0;
  let oldBefore = 0;
  let newBefore = 0;
  let i = 0;
  while (i < changed.length) {
    const first = changed[i] ?? 0;
    let last = first;
    // Two changes separated by at most 2×context equal lines share one hunk.
    while (i + 1 < changed.length && (changed[i + 1] ?? 0) - last <= 2 * CONTEXT_LINES + 1) last = changed[++i] ?? last;
    i++;
    const start = Math.max(0, first - CONTEXT_LINES);
    for (; counted < start; counted++) {
      const op = edits[counted]?.op;
      if (op !== "insert") oldBefore++;
      if (op !== "delete") newBefore++;
    }
    hunks.push({ edits: edits.slice(start, Math.min(edits.length, last + CONTEXT_LINES + 1)), oldBefore, newBefore });
  }
  return hunks;
}

function formatHunk(hunk: Hunk, a: readonly string[], b: readonly string[]): string {
  let oldCount = 0;
  let newCount = 0;
  let body = "";
  const line = (prefix: string, text: string): void => {
    body += prefix + text;
    if (!text.endsWith("\n")) body += `\n${NO_NEWLINE_MARKER}\n`;
  };
  for (const e of hunk.edits) {
    switch (e.op) {
      case "equal":
        oldCount++;
        newCount++;
        line(" ", a[e.a] ?? "");
        break;
      case "delete":
        oldCount++;
        line("-", a[e.a] ?? "");
        break;
      case "insert":
        newCount++;
        line("+", b[e.b] ?? "");
        break;
    }
  }
  // An empty side names the line before the hunk (0 at the top), as diff(1) does.
  const oldPos = oldCount === 0 ? hunk.oldBefore : hunk.oldBefore + 1;
  const newPos = newCount === 0 ? hunk.newBefore : hunk.newBefore + 1;
  return `@@ -${range(oldPos, oldCount)} +${range(newPos, newCount)} @@\n${body}`;
}

function range(start: number, count: number): string {
  return count === 1 ? String(start) : `${start},${count}`;
}
