export { ArchiveEvent, TranscriptLine } from "./archive-event.js";
export type { ArchiveEventType } from "./archive-event.js";
export {
  EVENTS_FILE,
  GENERATION_FILE,
  generationPaths,
  LOGS_DIR,
  PATCH_FILE,
  RUN_FILE,
  SNAPSHOT_DIR,
  SOLVE_TRANSCRIPT_FILE,
  TRANSCRIPT_FILE,
} from "./archive-paths.js";
export {
  listRuns,
  readEvents,
  readGeneration,
  readGenerationRecord,
  readPatch,
  readRun,
  readRunRecord,
  readSolveTranscript,
  readRunSummary,
  readTranscript,
} from "./archive-reader.js";
export type { RunContents, RunListing } from "./archive-reader.js";
export { appendRunEvent, ArchiveWriter } from "./archive-writer.js";
export { ApprovalDecision, DECISION_SCHEMA_VERSION, GenerationApproval, MAX_NOTE_CHARS } from "./approval-record.js";
export { decisionPath, DECISIONS_DIR, joinDecisions, readDecision, readDecisions, recordDecision, timeoutDecision, writeDecision } from "./approval-decisions.js";
export type { DecisionWrite } from "./approval-decisions.js";
export type { GenerationFiles } from "./record-folder.js";
export { writeRecordFolder } from "./record-folder.js";
export { applyPatch, parsePatch } from "./apply-patch.js";
export type { ApplyPatchResult, FilePatch, ParsePatchResult, PatchFailure, PatchHunk, PatchLine } from "./apply-patch.js";
export { syncDirectory, TEMP_PREFIX, tempPathFor, toJsonText, writeFileAtomic, writeFileSynced } from "./atomic-fs.js";
export {
  ChangedFile,
  EvaluateCalls,
  EnginePlacements,
  GENERATION_SCHEMA_VERSION,
  GenerationRecord,
  GenerationStatus,
  PhaseTimings,
  ScoreSummary,
  SolveUsage,
  TokenUsage,
} from "./generation-record.js";
export { GenerationSummary } from "./generation-summary.js";
export { formatGenerationId, GenerationId, parseGenerationId, RunId, Timestamp } from "./generation-id.js";
export { checkLineage, childrenCounts, childrenOf, depthOf, lineageOf } from "./lineage.js";
export type { LineageNode } from "./lineage.js";
export { diffLines, splitLines } from "./line-diff.js";
export type { Edit } from "./line-diff.js";
export { formatZodError, parseJsonText } from "./parse-problem.js";
export type { ArchiveProblem } from "./parse-problem.js";
export { rebuildSnapshot } from "./rebuild-lineage.js";
export type { RebuildResult } from "./rebuild-lineage.js";
export { abandonedChildren, deathsWhileChecking, observedStatus } from "./run-liveness.js";
export type { AbandonedChild, ObservedRunStatus } from "./run-liveness.js";
export { economyOf, LEGACY_ECONOMY, MAX_ATTEMPTS, RunEconomy } from "./run-economy.js";
export { ArenaSettings, RUN_SCHEMA_VERSION, RunConfig, RunLimits, RunOrigin, RunRecord, RunStatus } from "./run-record.js";
export { copyTree, hashDirectory, isSafeRelativePath, readOwnTree, readTree, snapshotHash, writeTree } from "./tree.js";
export type { Tree, TreeRead } from "./tree.js";
export { CONTEXT_LINES, diffFile, diffTrees } from "./unified-diff.js";
export { diffDirectories } from "./snapshot-diff.js";
export type { DirectoryDiff } from "./snapshot-diff.js";
export type { TreeDiff } from "./unified-diff.js";
export { resolveRunDir } from "./run-dir.js";
export { ensureWritableFolder, unwritableArchive } from "./writable-folder.js";
export type { WritePurpose } from "./writable-folder.js";
