/** The record-ready comparison of a child's tree with its parent's, straight from disk. */
import type { TreeDiff } from "./unified-diff.js";
import { diffTrees } from "./unified-diff.js";
import { readTree, snapshotHash } from "./tree.js";

/** A child's patch, changed files and snapshot hash against its parent's snapshot (null: the seed). */
export async function diffDirectories(parentDir: string | null, childDir: string): Promise<TreeDiff & { snapshotHash: string }> {
  const [from, to] = await Promise.all([parentDir === null ? Promise.resolve(new Map<string, string>()) : readTree(parentDir), readTree(childDir)]);
  return { ...diffTrees(from, to), snapshotHash: snapshotHash(to) };
}
