/**
 * Racing evaluation as data: the settings a run records in run.json, what one child's race
 * came to (in its evaluation record), and which children get the held-out split scored.
 * Scores are in [0, 1]. The rule itself is harness/src/evaluation/race-bound.ts.
 */
import { z } from "zod";

/** How a run races its children's visible evaluations. */
export const RaceSettings = z.strictObject({
  /**
   * The chance, over a child's whole race, of stopping it although its whole visible score
   * would have reached its target: the race states confidence 1 − delta.
   */
  delta: z.number().gt(0).lt(1),
  /** The bound behind the stop rule, named for the record (race-bound.ts). */
  bound: z.literal("hoeffding-serfling"),
});
export type RaceSettings = z.infer<typeof RaceSettings>;

/**
 * Why a race ended. complete: every visible instance was evaluated. below_parent: it could
 * not reach its parent's whole visible score. below_bar: it could not reach the task's
 * stage threshold (the admission bar), which was the higher of the two.
 */
export const RaceStop = z.enum(["complete", "below_parent", "below_bar"]);
export type RaceStop = z.infer<typeof RaceStop>;

/** Why one child's race ended (how many instances it got is the evaluation's `coverage`). */
export const RaceRecord = z.object({
  stop: RaceStop,
  /** The whole visible score it had to be able to reach: its parent's, or the task's bar when higher; null: none (it ran whole). */
  target: z.number().min(0).max(1).nullable(),
  /** The upper confidence bound on its whole visible score at the last check; null when no check ran. */
  upper: z.number().min(0).max(1).nullable(),
  /** The stated confidence of a stop: 1 − delta. */
  confidence: z.number().gt(0).lt(1),
});
export type RaceRecord = z.infer<typeof RaceRecord>;

/**
 * Which valid children get the held-out split scored. every_valid: all of them (runs without
 * racing, and every run before it). top: a child whose whole visible score puts it among the
 * `k` best whole visible scores recorded so far (ties to the earliest id), judged when its race
 * completes. The set only grows, so every child that is ever the best, and each of the final
 * top `k`, was among the top `k` when it was recorded: their held-out scores are complete.
 */
export const HeldoutRule = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("every_valid") }),
  z.strictObject({ kind: z.literal("top"), k: z.number().int().positive().max(1000) }),
]);
export type HeldoutRule = z.infer<typeof HeldoutRule>;
