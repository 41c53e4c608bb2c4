/** Small pieces the arena's phases share: who leads the code population, and bounded concurrency. */
import type { GenerationRecord } from "../../archive/index.js";
import { candidateScores, keepBest, type ArenaState, type RoundStanding } from "../../arena/index.js";

/** A candidate's scores on the visible instances and the suite in force. */
export function scoresIn(state: ArenaState, candidate: string, visibleIds: readonly string[]) {
  return candidateScores(state.results.get(candidate) ?? new Map(), visibleIds, state.suite.map((t) => t.id));
}

/** The best of `candidates` on visible + suite (ties to the earlier), with its held-out score from its record. */
export function standingOf(state: ArenaState, candidates: readonly string[], visibleIds: readonly string[], generations: ReadonlyMap<string, GenerationRecord>): RoundStanding {
  const [best] = keepBest(candidates, (id) => scoresIn(state, id, visibleIds).arena ?? 0, 1);
  const id = best ?? (candidates[0] as string);
  const scores = scoresIn(state, id, visibleIds);
  return { best: id, suite: scores.suite, visible: scores.visible, arena: scores.arena, heldout: generations.get(id)?.scores.heldout ?? null };
}

/** Runs `work` for every item, at most `limit` at once; the first failure is thrown once all have settled. */
export async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (errors.length > 0) throw errors[0];
}
