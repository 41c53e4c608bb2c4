/** Lineage over generation records: the chain from the root, children, depth, consistency. */
import { EvolveError } from "../../../sandbox/src/errors.js";
import type { ArchiveProblem } from "./parse-problem.js";

/** The part of a record lineage needs. */
export interface LineageNode {
  readonly id: string;
  readonly parent: string | null;
  readonly depth?: number;
}

/** Ids from the root to `id`, root first. */
export function lineageOf(nodes: readonly LineageNode[], id: string): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  if (!byId.has(id)) throw new EvolveError("unknown_generation", `no generation ${id}`);
  const chain: string[] = [];
  const seen = new Set<string>();
  let current: string | null = id;
  while (current !== null) {
    if (seen.has(current)) throw new EvolveError("archive_corrupt", `the lineage of ${id} has a cycle through ${current}`);
    seen.add(current);
    const node = byId.get(current);
    if (node === undefined) throw new EvolveError("archive_corrupt", `the lineage of ${id} names a missing parent ${current}`);
    chain.push(current);
    current = node.parent;
  }
  return chain.reverse();
}

/** Number of children per id (every id present, 0 for leaves). */
export function childrenCounts(nodes: readonly LineageNode[]): Map<string, number> {
  const counts = new Map(nodes.map((n) => [n.id, 0]));
  for (const n of nodes) if (n.parent !== null && counts.has(n.parent)) counts.set(n.parent, (counts.get(n.parent) ?? 0) + 1);
  return counts;
}

/** The children of `id`, in the order given. */
export function childrenOf(nodes: readonly LineageNode[], id: string): string[] {
  return nodes.filter((n) => n.parent === id).map((n) => n.id);
}

/** Distance from the root (0 for the root). */
export function depthOf(nodes: readonly LineageNode[], id: string): number {
  return lineageOf(nodes, id).length - 1;
}

/** Every inconsistency: missing parents, cycles, recorded depths that disagree, not exactly one root. */
export function checkLineage(nodes: readonly LineageNode[], where = ""): ArchiveProblem[] {
  const problems: ArchiveProblem[] = [];
  const roots = nodes.filter((n) => n.parent === null);
  if (nodes.length > 0 && roots.length !== 1) problems.push({ path: where, reason: `expected one root, found ${roots.length}` });
  for (const n of nodes) {
    try {
      const depth = lineageOf(nodes, n.id).length - 1;
      if (n.depth !== undefined && n.depth !== depth) problems.push({ path: `${where}${n.id}`, reason: `recorded depth ${n.depth}, actual ${depth}` });
    } catch (error) {
      problems.push({ path: `${where}${n.id}`, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return problems;
}
