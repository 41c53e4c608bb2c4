/**
 * Scores in an arena, pure: a code candidate is judged on the visible instances and the
 * tests in force (missing results count 0: a candidate that stopped at stage 1 never ran
 * them); populations keep their best; parents are drawn by binary tournament.
 */
import type { Rng } from "../selection/index.js";
import type { TestOutcome } from "./arena-record.js";

/** Instance or test id → outcome, for one candidate. */
export type CandidateResults = ReadonlyMap<string, TestOutcome>;

export interface CandidateScores {
  /** Mean over the visible instances. */
  visible: number | null;
  /** Mean over the tests in force. */
  suite: number | null;
  /** Mean over both together: what selection uses. */
  arena: number | null;
}

function mean(ids: readonly string[], results: CandidateResults): number | null {
  if (ids.length === 0) return null;
  return ids.reduce((sum, id) => sum + (results.get(id)?.score ?? 0), 0) / ids.length;
}

export function candidateScores(results: CandidateResults, visibleIds: readonly string[], suiteIds: readonly string[]): CandidateScores {
  return { visible: mean(visibleIds, results), suite: mean(suiteIds, results), arena: mean([...visibleIds, ...suiteIds], results) };
}

/**
 * The `keep` best of `ids` by `fitness`, higher first; ties keep the earlier in `ids` (the
 * incumbent before its challenger), so a child must beat a member to replace it.
 */
export function keepBest(ids: readonly string[], fitness: (id: string) => number, keep: number): string[] {
  return ids
    .map((id, order) => ({ id, order, value: fitness(id) }))
    .sort((a, b) => b.value - a.value || a.order - b.order)
    .slice(0, keep)
    .map((e) => e.id);
}

/** Binary tournament: two members drawn at random (the same one possibly twice), the fitter wins, ties to the first drawn. */
export function tournamentPick(rng: Rng, ids: readonly string[], fitness: (id: string) => number): string {
  if (ids.length === 0) throw new RangeError("a tournament needs at least one member");
  const a = ids[rng.nextInt(ids.length)] as string;
  const b = ids[rng.nextInt(ids.length)] as string;
  return fitness(b) > fitness(a) ? b : a;
}
