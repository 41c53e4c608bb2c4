/**
 * What the request's attempts (built by the harness from its own records) say about moves:
 * those already tried from this parent (every move its other children's summaries name, kept
 * or only drafted), which the knob search never proposes again, and those that raised a close
 * relative's score, which it tries first. A request without `attempts` (a run with
 * --attempts 0) excludes and prefers nothing.
 */
import type { ImproveRequest } from "@evolve/contract";
import { draftsPart, keptPart, parseMoves, type Move } from "./moves.js";

/** One move as a key: the same knob of the same file set to the same value. */
export function moveKey(move: Pick<Move, "file" | "name" | "to">): string {
  return `${move.file}|${move.name}|${move.to}`;
}

/**
 * The keys of every move a sibling (a child of the same parent) already tried; of every move
 * tried from the grandparent that did not raise the score there (the parent is the grandparent
 * plus one change, so it most likely does not help here either); of every draft an ancestor
 * within `memory` steps tried and did not keep (it did not win from the tree it was drafted
 * from, one or a few changes away from this one); and of the move that would undo the
 * parent's own change when that change was a single move (the tree would be the
 * grandparent's, which the archive already has).
 */
export function triedFromParent(request: ImproveRequest, memory = Infinity): Set<string> {
  const keys = new Set<string>();
  // A run that shows no attempts gets the search as it was before them.
  if (request.attempts === undefined) return keys;
  const own = parseMoves(keptPart(request.lineage.at(-1)?.summary ?? ""));
  if (own.length === 1 && own[0] !== undefined) keys.add(moveKey({ ...own[0], to: own[0].from }));
  // The root's summary names no draft; a lineage step's drafts that it kept are its moves.
  for (const step of request.lineage.slice(1).slice(-memory)) {
    const kept = new Set(parseMoves(keptPart(step.summary)).map(moveKey));
    for (const move of parseMoves(draftsPart(step.summary))) if (!kept.has(moveKey(move))) keys.add(moveKey(move));
  }
  for (const attempt of request.attempts ?? []) {
    if (attempt.relation === "sibling") for (const move of parseMoves(attempt.summary)) keys.add(moveKey(move));
    if (attempt.relation !== "parent_sibling") continue;
    // From the grandparent: the drafts did not win there, nor the kept moves unless they raised the score.
    const helped = attempt.outcome.kind === "valid" && (attempt.outcome.delta ?? 0) > 0;
    for (const move of parseMoves(helped ? draftsPart(attempt.summary) : attempt.summary)) keys.add(moveKey(move));
  }
  return keys;
}

/**
 * Moves a close relative (not a sibling: its tree exists already) kept and that raised its
 * score, best first: worth trying here first where the knob still has the value they moved
 * from, since the same change may help this tree too.
 */
export function helpedNearby(request: ImproveRequest): Move[] {
  const found: { move: Move; delta: number }[] = [];
  for (const attempt of request.attempts ?? []) {
    const delta = attempt.outcome.kind === "valid" ? (attempt.outcome.delta ?? 0) : 0;
    if (attempt.relation === "sibling" || delta <= 0) continue;
    for (const move of parseMoves(keptPart(attempt.summary))) found.push({ move, delta });
  }
  return found.sort((a, b) => b.delta - a.delta).map((e) => e.move);
}
