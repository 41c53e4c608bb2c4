/** Where things live inside a run folder (the README's "Archive" section shows the layout). */
import { join } from "node:path";

export const RUN_FILE = "run.json";
export const EVENTS_FILE = "events.jsonl";
/** Each generation's summary, one line each: a cache of the records for listings (summary-index.ts). */
export const SUMMARIES_FILE = "summaries.jsonl";
export const GENERATION_FILE = "generation.json";
export const PATCH_FILE = "patch.diff";
export const SNAPSHOT_DIR = "snapshot";
export const TRANSCRIPT_FILE = "transcript.jsonl";
/** The task agent's LLM calls while the generation was evaluated (only when it made any). */
export const SOLVE_TRANSCRIPT_FILE = "solve-transcript.jsonl";
export const LOGS_DIR = "logs";

/** A generation's record: one join, for readers that visit every generation of a run. */
export function generationRecordPath(runDir: string, id: string): string {
  return join(runDir, id, GENERATION_FILE);
}

/** The paths of one generation's folder. */
export function generationPaths(runDir: string, id: string) {
  const dir = join(runDir, id);
  return {
    dir,
    record: generationRecordPath(runDir, id),
    patch: join(dir, PATCH_FILE),
    snapshot: join(dir, SNAPSHOT_DIR),
    transcript: join(dir, TRANSCRIPT_FILE),
    solveTranscript: join(dir, SOLVE_TRANSCRIPT_FILE),
    logs: join(dir, LOGS_DIR),
  };
}
