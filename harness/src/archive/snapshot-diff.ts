/** The record-ready comparison of a child's tree with its parent's, straight from disk. */
import type { TreeDiff } from "./unified-diff.js";
import { diffTrees } from "./unified-diff.js";
import { readOwnTree, readTree, snapshotHash } from "./tree.js";

/** A child's patch, changed files and hash; or why the child's folder does not read as a tree. */
export type DirectoryDiff = ({ ok: true } & TreeDiff & { snapshotHash: string }) | { ok: false; reason: string };

/**
 * The child's diff against its parent's snapshot (null: against nothing, for a seed). The
 * parent is the harness's own (unreadable: a corrupt archive, thrown); the child is agent
 * data, so an unreadable child is a value.
 */
export async function diffDirectories(parentDir: string | null, childDir: string): Promise<DirectoryDiff> {
  const [from, to] = await Promise.all([parentDir === null ? Promise.resolve(new Map<string, string>()) : readOwnTree(parentDir), readTree(childDir)]);
  if (!to.ok) return to;
  return { ok: true, ...diffTrees(from, to.tree), snapshotHash: snapshotHash(to.tree) };
}
