/**
 * How a run spends its compute, recorded in run.json (`config.economy`) so `resume` and
 * `replay` do as the run did: what its meta agents are shown of earlier attempts, whether
 * selection discounts parents whose children came out barren, whether children race through
 * the visible split, and which children get the held-out split scored. Absent in run.json:
 * the run was started before these existed, and behaves as runs then did (LEGACY_ECONOMY).
 */
import { z } from "zod";
import { HeldoutRule, RaceSettings } from "../results/index.js";

/** The most attempts one improve request may carry. */
export const MAX_ATTEMPTS = 50;

export const RunEconomy = z.strictObject({
  /** Attempts (recent children of the parent and its close relatives) shown in each improve request; 0: none. */
  attempts: z.number().int().min(0).max(MAX_ATTEMPTS),
  /** Strategies that count children also discount a parent by its barren (invalid or duplicate) children. */
  discountBarren: z.boolean(),
  /** Racing evaluation of each child's visible split; null: staged (stage 1, then the rest above the task's threshold). */
  racing: RaceSettings.nullable(),
  /** Which valid children get the held-out split scored. */
  heldout: HeldoutRule,
});
export type RunEconomy = z.infer<typeof RunEconomy>;

/** What a run without `economy` in its run.json did: no attempts, no discount, staged evaluation, held-out for every valid child. */
export const LEGACY_ECONOMY: RunEconomy = { attempts: 0, discountBarren: false, racing: null, heldout: { kind: "every_valid" } };

/** The economy a run was recorded with. */
export function economyOf(config: { economy?: RunEconomy | undefined }): RunEconomy {
  return config.economy ?? LEGACY_ECONOMY;
}
