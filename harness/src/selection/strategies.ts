/**
 * Parent-selection strategies: each maps the eligible candidates to weights, or (cmp) draws
 * its choice itself. Stochastic strategies are sampled with the run's seeded RNG;
 * deterministic ones put all weight on one candidate and never touch the RNG.
 */
import { z } from "zod";
import { assertNever } from "../kernel/index.js";
import type { SelectionCandidate } from "./candidates.js";
import { compareIds } from "./generation.js";
import { cladeMeans, thompsonDraw } from "./cmp.js";
import type { Rng } from "./rng.js";

export const SelectionStrategyName = z.enum(["score_child_prop", "hyperagents", "cmp", "best", "random", "greedy", "latest"]);
export type SelectionStrategyName = z.infer<typeof SelectionStrategyName>;

export const DEFAULT_SELECTION_STRATEGY: SelectionStrategyName = "score_child_prop";

/** A named rule turning eligible candidates (valid, id-ordered) into sampling weights. */
export interface SelectionStrategy {
  readonly name: SelectionStrategyName;
  /** One line for `--help` and the report. */
  readonly description: string;
  /** Whether a selection draws one number from the RNG. */
  readonly stochastic: boolean;
  /** Non-negative weights, one per candidate, in the order given (cmp: its posterior means, a summary of what it draws from). */
  weights(candidates: readonly SelectionCandidate[]): number[];
  /** A strategy that draws its choice itself (Thompson sampling) rather than by its weights: the index chosen. */
  draw?(candidates: readonly SelectionCandidate[], rng: Rng): number;
}

/** How a run's strategies weigh children. */
export interface StrategyOptions {
  /**
   * Multiply a weight that counts children by (1 + fertile) / (1 + children), fertile being
   * the children that were not barren (see SelectionCandidate.barren): a parent whose children
   * keep coming out empty or invalid loses weight, one with none or only productive ones keeps it.
   * The weight is also divided by the candidate's plateau (SelectionCandidate.plateau): a place
   * below the best weighs as one node, however many neutral children it has grown.
   */
  discountBarren: boolean;
}

/** The barren-children and plateau factor of a candidate (1 when the discount is off). */
function discountFactor(c: SelectionCandidate, options: StrategyOptions): number {
  if (!options.discountBarren) return 1;
  const barren = Math.min(c.barren ?? 0, c.children);
  return (1 + c.children - barren) / (1 + c.children) / Math.max(1, c.plateau ?? 1);
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** All weight on the first candidate that `better` prefers. */
function oneHot(candidates: readonly SelectionCandidate[], better: (a: SelectionCandidate, b: SelectionCandidate) => boolean): number[] {
  let best = 0;
  candidates.forEach((c, i) => {
    const current = candidates[best];
    if (current !== undefined && better(c, current)) best = i;
  });
  return candidates.map((_, i) => (i === best ? 1 : 0));
}

/** The mean of the (up to) three highest scores: HyperAgents' moving midpoint. */
export function topThreeMean(candidates: readonly SelectionCandidate[]): number {
  const top = candidates.map((c) => c.score).sort((a, b) => b - a).slice(0, 3);
  return top.length === 0 ? 0 : top.reduce((s, x) => s + x, 0) / top.length;
}

/** The strategy of a name (exhaustive over the enum); `options` apply to the strategies that weigh children. */
export function strategyByName(name: SelectionStrategyName, options: StrategyOptions = { discountBarren: false }): SelectionStrategy {
  const discount = options.discountBarren ? " (× the share of fertile children)" : "";
  switch (name) {
    case "score_child_prop":
      return {
        name,
        description: `DGM default: p ∝ sigmoid(10·(score − 0.5)) / (1 + children)${discount}`,
        stochastic: true,
        weights: (cs) => cs.map((c) => (sigmoid(10 * (c.score - 0.5)) / (1 + c.children)) * discountFactor(c, options)),
      };
    case "hyperagents":
      return {
        name,
        description: `HyperAgents: p ∝ sigmoid(10·(score − mean of top 3)) · exp(−(children/8)³)${discount}`,
        stochastic: true,
        weights: (cs) => {
          const mid = topThreeMean(cs);
          return cs.map((c) => sigmoid(10 * (c.score - mid)) * Math.exp(-((c.children / 8) ** 3)) * discountFactor(c, options));
        },
      };
    case "cmp":
      return {
        name,
        description: "Huxley-Gödel Machine: Thompson sampling of each clade's Beta(1 + successes, 1 + failures) over its subtree's visible results (invalid children count as zeros)",
        stochastic: true,
        weights: cladeMeans,
        draw: thompsonDraw,
      };
    case "best":
      // Ties go to the earliest generation: the first to reach a score stays the reference.
      return {
        name,
        description: "the highest visible score; ties to the earliest generation",
        stochastic: false,
        weights: (cs) => oneHot(cs, (c, cur) => c.score > cur.score),
      };
    case "greedy":
      // Hill climbing: like `best`, but a later generation that equals the best score takes
      // over, so the search walks along plateaus instead of re-mutating the first node.
      return {
        name,
        description: "hill climbing from the current best; ties to the latest generation (walks plateaus)",
        stochastic: false,
        weights: (cs) => oneHot(cs, (c, cur) => c.score > cur.score || (c.score === cur.score && compareIds(c.id, cur.id) > 0)),
      };
    case "random":
      return { name, description: "uniform over valid generations", stochastic: true, weights: (cs) => cs.map(() => 1) };
    case "latest":
      return {
        name,
        description: "the most recent valid generation (no archive: a single chain)",
        stochastic: false,
        weights: (cs) => oneHot(cs, (c, cur) => compareIds(c.id, cur.id) > 0),
      };
    default:
      return assertNever(name, "selection strategy");
  }
}

/** Every strategy, for help texts. */
export function allStrategies(): SelectionStrategy[] {
  return SelectionStrategyName.options.map((name) => strategyByName(name));
}
