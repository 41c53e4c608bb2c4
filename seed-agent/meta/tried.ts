/**
 * Moves already tried from this parent: every move the summaries of its other children name
 * (kept or only drafted), read from the request's attempts, which the harness builds from its
 * own records. The knob search never proposes one of them again. A request without
 * `attempts` (a run with --attempts 0) excludes nothing.
 */
import type { ImproveRequest } from "@evolve/contract";
import { keptPart, parseMoves, type Move } from "./moves.js";

/** One move as a key: the same knob of the same file set to the same value. */
export function moveKey(move: Pick<Move, "file" | "name" | "to">): string {
  return `${move.file}|${move.name}|${move.to}`;
}

/**
 * The keys of every move a sibling (a child of the same parent) already tried, and the move
 * that would undo the parent's own change when that change was a single move (the tree would
 * be the grandparent's, which the archive already has).
 */
export function triedFromParent(request: ImproveRequest): Set<string> {
  const keys = new Set<string>();
  // A run that shows no attempts gets the search as it was before them.
  if (request.attempts === undefined) return keys;
  const own = parseMoves(keptPart(request.lineage.at(-1)?.summary ?? ""));
  if (own.length === 1 && own[0] !== undefined) keys.add(moveKey({ ...own[0], to: own[0].from }));
  for (const attempt of request.attempts ?? []) {
    if (attempt.relation !== "sibling") continue;
    for (const move of parseMoves(attempt.summary)) keys.add(moveKey(move));
  }
  return keys;
}
