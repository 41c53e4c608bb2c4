export { arenaPaths, readArena, recordTester, sweepArenaTemporaries, writeRound, ARENA_DIR } from "./arena-archive.js";
export type { ArenaContents } from "./arena-archive.js";
export {
  ARENA_SCHEMA_VERSION,
  ArenaTest,
  ArenaTestId,
  formatTesterId,
  OutcomeMatrix,
  parseTesterId,
  ProposalOutcome,
  ProposeCall,
  RoundRecord,
  RoundStanding,
  TesterId,
  TesterRecord,
  TestOutcome,
} from "./arena-record.js";
export { candidateScores, keepBest, tournamentPick } from "./arena-score.js";
export type { CandidateResults, CandidateScores } from "./arena-score.js";
export { arenaStateOf, matrixOf, mergeMatrix, recordOutcomes, suiteAfter, suiteOfGeneration, taskWithSuite } from "./arena-state.js";
export type { ArenaPosition, ArenaState } from "./arena-state.js";
export { DiscardCode } from "./discard-code.js";
export { admitTests, retireAllPassed } from "./suite.js";
export type { Admission, AdmitInput, Retirement, ScoreOf } from "./suite.js";
export { judgeProposals, JUDGE_MEMORY_MB, JUDGE_TIMEOUT_MS } from "./judge-proposals.js";
export type { JudgeOptions, ProposalVerdict } from "./judge-proposals.js";
