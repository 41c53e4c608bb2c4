/**
 * Read an agent tree's shape with lstat only: links are reported, never followed, and the
 * walk stops at the first breach so a hostile tree costs little. Synchronous calls: it runs
 * in the check worker, one candidate at a time, where one await per entry only added the
 * thread pool's round trips (the walks of a draft and its parent took up to tens of ms).
 */
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { PolicyCaps } from "./policy-caps.js";

/** A regular file of the tree: `/`-separated path relative to the root, and its size. */
export interface TreeFile {
  path: string;
  bytes: number;
}

/** Why a walk stopped early, with the offending relative path. */
export interface WalkBreach {
  code: "link" | "special_file" | "path_outside_tree" | "too_many_files" | "file_too_large" | "tree_too_large" | "too_deep";
  path: string;
  message: string;
}

export type WalkResult = { ok: true; files: TreeFile[] } | { ok: false; breach: WalkBreach };

// Portable names only: a backslash, a control character or a colon is a separator or an
// escape somewhere (Windows, tar, URLs), and "." / ".." are traversal.
const SAFE_NAME = /^[^\\/:\x00-\x1f\x7f]+$/;

/** Walk `root` (which must itself be a real directory, not a link) under `caps`. */
export async function walkTree(root: string, caps: PolicyCaps): Promise<WalkResult> {
  const rootStat = lstatSync(root);
  if (rootStat.isSymbolicLink()) return breach("link", ".", "the tree root is a symbolic link");
  if (!rootStat.isDirectory()) return breach("special_file", ".", "the tree root is not a directory");
  const files: TreeFile[] = [];
  let total = 0;
  const pending: { dir: string; rel: string; depth: number }[] = [{ dir: root, rel: "", depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const entries = readdirSync(next.dir, { withFileTypes: true });
    for (const entry of entries) {
      const rel = next.rel === "" ? entry.name : `${next.rel}/${entry.name}`;
      if (entry.name === "." || entry.name === ".." || !SAFE_NAME.test(entry.name)) {
        return breach("path_outside_tree", rel, `"${rel}" is not a portable name inside the tree`);
      }
      if (rel.length > caps.maxPathLength) return breach("path_outside_tree", rel, `path longer than ${caps.maxPathLength}`);
      const full = join(next.dir, entry.name);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) return breach("link", rel, `"${rel}" is a symbolic link`);
      if (stat.isDirectory()) {
        if (next.depth + 1 > caps.maxDepth) return breach("too_deep", rel, `more than ${caps.maxDepth} folders deep`);
        pending.push({ dir: full, rel, depth: next.depth + 1 });
        continue;
      }
      if (!stat.isFile()) return breach("special_file", rel, `"${rel}" is neither a file nor a folder`);
      if (stat.nlink > 1) return breach("link", rel, `"${rel}" is a hard link (${stat.nlink} names)`);
      if (stat.size > caps.maxFileBytes) {
        return breach("file_too_large", rel, `"${rel}" has ${stat.size} bytes (cap ${caps.maxFileBytes})`);
      }
      total += stat.size;
      if (total > caps.maxTotalBytes) return breach("tree_too_large", rel, `the tree exceeds ${caps.maxTotalBytes} bytes`);
      files.push({ path: rel, bytes: stat.size });
      if (files.length > caps.maxFiles) return breach("too_many_files", rel, `more than ${caps.maxFiles} files`);
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, files };
}

function breach(code: WalkBreach["code"], path: string, message: string): WalkResult {
  return { ok: false, breach: { code, path, message } };
}
