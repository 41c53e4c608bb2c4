/**
 * Rebuilding a generation's tree from the root alone: apply each stored patch in order
 * (generation 0's patch is against the empty tree) and check every step against the
 * recorded snapshot hash, and the stored snapshot/ against it too. Replay's first check.
 */
import { applyPatch } from "./apply-patch.js";
import { generationPaths } from "./archive-paths.js";
import { readGeneration, readPatch } from "./archive-reader.js";
import { lineageOf } from "./lineage.js";
import type { LineageNode } from "./lineage.js";
import type { Tree } from "./tree.js";
import { hashDirectory, snapshotHash } from "./tree.js";

export type RebuildResult =
  | { readonly ok: true; readonly tree: Tree; readonly lineage: string[] }
  | { readonly ok: false; readonly generation: string; readonly reason: string; readonly lineage: string[] };

/** Rebuilds `id` from the root of its run; the first step that does not reproduce is reported. */
export async function rebuildSnapshot(runDir: string, nodes: readonly LineageNode[], id: string): Promise<RebuildResult> {
  const lineage = lineageOf(nodes, id);
  let tree: Tree = new Map();
  for (const step of lineage) {
    const record = await readGeneration(runDir, step);
    const applied = applyPatch(tree, await readPatch(runDir, step));
    if (!applied.ok) {
      const where = [applied.path, applied.hunk === null ? null : `hunk ${applied.hunk}`].filter((x) => x !== null).join(" ");
      return { ok: false, generation: step, reason: `patch.diff does not apply${where === "" ? "" : ` (${where})`}: ${applied.reason}`, lineage };
    }
    tree = applied.tree;
    const rebuilt = snapshotHash(tree);
    if (rebuilt !== record.snapshotHash) {
      return { ok: false, generation: step, reason: `rebuilt tree hash ${rebuilt} differs from the recorded ${record.snapshotHash ?? "null"}`, lineage };
    }
    let stored: string;
    try {
      stored = await hashDirectory(generationPaths(runDir, step).snapshot);
    } catch (error) {
      return { ok: false, generation: step, reason: `snapshot/ unreadable: ${error instanceof Error ? error.message : String(error)}`, lineage };
    }
    if (stored !== record.snapshotHash) {
      return { ok: false, generation: step, reason: `snapshot/ hash ${stored} differs from the recorded ${record.snapshotHash ?? "null"}`, lineage };
    }
  }
  return { ok: true, tree, lineage };
}
