/** Lineage over generation records: the chain from the root, children, depth, consistency. */
import { EvolveError } from "../kernel/index.js";
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
  const byId = new Map(nodes.map((n) => [n.id, n]));
  // Depths are memoised as chains resolve, so the whole check is linear in the archive
  // (10,000 generations in milliseconds, not one walk to the root per node).
  const depths = new Map<string, number>();
  for (const n of nodes) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let current: string | null = n.id;
    let base = -1;
    let broken: string | null = null;
    while (current !== null) {
      const known = depths.get(current);
      if (known !== undefined) {
        base = known;
        break;
      }
      if (onPath.has(current)) {
        broken = `the lineage of ${n.id} has a cycle through ${current}`;
        break;
      }
      const node = byId.get(current);
      if (node === undefined) {
        broken = `the lineage of ${n.id} names a missing parent ${current}`;
        break;
      }
      onPath.add(current);
      path.push(current);
      current = node.parent;
    }
    if (broken !== null) {
      problems.push({ path: `${where}${n.id}`, reason: broken });
      continue;
    }
    for (let i = path.length - 1, depth = base + 1; i >= 0; i--, depth++) depths.set(path[i] as string, depth);
    const depth = depths.get(n.id) as number;
    if (n.depth !== undefined && n.depth !== depth) problems.push({ path: `${where}${n.id}`, reason: `recorded depth ${n.depth}, actual ${depth}` });
  }
  return problems;
}
