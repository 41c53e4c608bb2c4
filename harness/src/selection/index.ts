export { createRng, restoreRng, RngState } from "./rng.js";
export type { Rng } from "./rng.js";
export { candidatesFromGenerations } from "./candidates.js";
export type { SelectionCandidate } from "./candidates.js";
export { compareIds, wholeVisibleScore, type Contender, type GenerationLike } from "./generation.js";
export { cladeOutcomes } from "./clade.js";
export type { CladeMember, CladeOutcomes } from "./clade.js";
export { cladePosterior } from "./cmp.js";
export { betaSample, gammaSample } from "./beta-sample.js";
export {
  allStrategies,
  DEFAULT_SELECTION_STRATEGY,
  SelectionStrategyName,
  strategyByName,
  topThreeMean,
} from "./strategies.js";
export type { SelectionStrategy, StrategyOptions } from "./strategies.js";
export { selectionProbabilities, selectParent } from "./select-parent.js";
export { bestGeneration, contenderScore, rankAmongBest, ranksAbove } from "./best-generation.js";
