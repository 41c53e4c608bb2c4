/**
 * How a child's racing evaluation and held-out rule read in the views (progress lines, tree,
 * show, the report): a partly evaluated child has no whole visible score, so the views say how
 * far it got and why it stopped instead of showing a number that would compare as whole.
 */
import type { GenerationRecord } from "../archive/index.js";
import { visibleComplete } from "../results/index.js";
import { formatScore } from "./run-summary.js";

/** "stopped 1/3" when the visible evaluation stopped early; null when it was whole (or none ran). */
export function stoppedTag(g: GenerationRecord): string | null {
  const e = g.evaluation;
  if (g.status.kind !== "valid" || e === null || visibleComplete(e)) return null;
  const evaluated = e.coverage?.evaluated ?? e.stages.filter((s) => s.stage !== "heldout").reduce((n, s) => n + s.instances.length, 0);
  return `stopped ${evaluated}/${e.coverage?.of ?? "?"}`;
}

/** The visible score in words: "0.9167", or "stopped 1/3" for a child whose race stopped early. */
export function visibleText(g: GenerationRecord): string {
  return stoppedTag(g) ?? formatScore(g.scores.visible);
}

/** Why a race stopped, in a sentence; null when it ran whole or did not race. */
export function describeRace(g: GenerationRecord): string | null {
  const e = g.evaluation;
  const race = e?.race;
  if (e === null || e === undefined || race === undefined || race.stop === "complete") return null;
  const against = race.stop === "below_parent" ? `its parent's ${formatScore(race.target)}` : `the task's bar ${formatScore(race.target)}`;
  const bound = race.upper === null ? "" : ` (upper bound ${formatScore(race.upper)} at ${Math.round(race.confidence * 100)} % confidence)`;
  return `stopped after ${e.coverage?.evaluated ?? "?"} of ${e.coverage?.of ?? "?"} visible instances: it could not reach ${against}${bound}`;
}
