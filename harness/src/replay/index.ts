/** `evolve replay`: rebuild, re-run and re-score a lineage from the archive alone. */
export { replayLineage } from "./replay-lineage.js";
export type { ReplayOptions, ReplayReport, ReplayVerdict } from "./replay-lineage.js";
export { compareScores } from "./replay-scores.js";
export type { ScoreCheck, SplitComparison } from "./replay-scores.js";
export type { SelfModifyCheck } from "./replay-self-modify.js";
export { scoreLines, verdictLine } from "./format-replay.js";
export { createReplayContext, replaySetup } from "./replay-context.js";
