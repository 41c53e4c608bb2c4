/**
 * The tester entry of an agent tree (arena runs): optional in a code agent's tree, required
 * of a test generation's. When present it is checked like the other entries: `propose` must
 * be a `ProposeFn` (signature gate) and a function at load (import gate).
 */
import { lstat } from "node:fs/promises";
import { join } from "node:path";

/** The tester's entry module, relative to the tree's root. */
export const TESTER_FILE = "tester/index.ts";

/** True when `dir` has tester/index.ts as a regular file (a link is not followed: the policy gate refuses it). */
export async function treeHasTester(dir: string): Promise<boolean> {
  const info = await lstat(join(dir, ...TESTER_FILE.split("/"))).catch(() => null);
  return info?.isFile() ?? false;
}
