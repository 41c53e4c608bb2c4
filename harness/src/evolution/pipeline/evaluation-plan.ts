/**
 * How one generation is evaluated, from the run's economy: the seed whole (it is every
 * child's first bar), a child raced against its parent's whole visible score when the run
 * races, and the held-out split scored by the run's held-out rule (recorded in run.json).
 */
import { rankAmongBest, wholeVisibleScore } from "../../selection/index.js";
import type { GenerationRecord } from "../../archive/index.js";
import type { RaceOptions } from "../../evaluation/index.js";
import type { RunContext } from "../context/index.js";

export interface EvaluationPlan {
  /** "full": every visible instance, whatever stage 1 scored; "staged": the task's stages (or the race). */
  visible: "staged" | "full";
  /** Race the visible split against this; null: no race. */
  race: RaceOptions | null;
  /** A reason not to score the held-out split after all, given the visible result; null: always score it. */
  heldoutUnless: ((visible: { score: number | null; complete: boolean }) => string | null) | null;
}

/** The seed (or a branch point): whole on both splits. Also what a run without racing used to do for every child, but staged. */
export const SEED_EVALUATION: EvaluationPlan = { visible: "full", race: null, heldoutUnless: null };

/** Staged, held-out for every valid child: every run before racing, and arena runs. */
export const STAGED_EVALUATION: EvaluationPlan = { visible: "staged", race: null, heldoutUnless: null };

/**
 * A child's plan. `records` is read when the child's visible evaluation ends, so the held-out
 * rule ranks it among everything recorded by then.
 */
export function childEvaluationPlan(ctx: Pick<RunContext, "economy">, id: string, parent: GenerationRecord, records: () => readonly GenerationRecord[]): EvaluationPlan {
  const { racing, heldout } = ctx.economy;
  return {
    visible: "staged",
    race: racing === null ? null : { settings: racing, parentScore: wholeVisibleScore(parent) },
    heldoutUnless:
      heldout.kind === "every_valid"
        ? null
        : (visible) => {
            if (!visible.complete || visible.score === null) return "its visible evaluation stopped early";
            const ahead = rankAmongBest(records(), visible.score, id);
            return ahead < heldout.k ? null : `not among the ${heldout.k} best whole visible scores when it was evaluated (${ahead} ahead)`;
          },
  };
}

/**
 * The plan that reproduces a recorded generation's evaluation (`evolve replay`): the seed
 * whole; a child raced against its parent's whole visible score when it was raced; its
 * held-out split skipped, for the recorded reason, when it was skipped.
 */
export function recordedEvaluationPlan(ctx: Pick<RunContext, "economy">, g: GenerationRecord, parent: GenerationRecord | null): EvaluationPlan {
  if (g.parent === null) return SEED_EVALUATION;
  const racing = ctx.economy.racing;
  const raced = g.evaluation?.race !== undefined && racing !== null;
  const skipped = g.evaluation?.heldoutSkipped;
  return {
    visible: "staged",
    race: raced ? { settings: racing, parentScore: parent === null ? null : wholeVisibleScore(parent) } : null,
    heldoutUnless: skipped === undefined ? null : () => skipped,
  };
}
