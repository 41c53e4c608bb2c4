/**
 * One recorded folder written all or nothing: a generation (gNNNN/) or an arena's test
 * generation (arena/testers/tNNNN/). It is staged in a temporary folder beside its place,
 * the snapshot's hash is checked against the record, every file is synced, and the folder
 * is renamed in, so a reader sees all of it or nothing.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { EvolveError } from "../kernel/index.js";
import type { TranscriptLine } from "./archive-event.js";
import { LOGS_DIR, PATCH_FILE, SNAPSHOT_DIR, SOLVE_TRANSCRIPT_FILE, TRANSCRIPT_FILE } from "./archive-paths.js";
import { syncDirectory, tempPathFor, writeFileSynced } from "./atomic-fs.js";
import { copyTree, hashDirectory } from "./tree.js";

/** The files kept beside a generation's (or a test generation's) record. */
export interface GenerationFiles {
  /** The agent tree as the meta agent left it; null when nothing usable came back. */
  readonly snapshotDir: string | null;
  /** Unified diff against the parent's snapshot (against the empty tree for generation 0). */
  readonly patch: string;
  readonly transcript: readonly TranscriptLine[];
  /** The task agent's LLM calls at solve time; the file is written only when there are some. */
  readonly solveTranscript?: readonly TranscriptLine[];
  /** Log name (e.g. "self-modify.stderr") → capped text; names are plain file names. */
  readonly logs: Readonly<Record<string, string>>;
}

const LOG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Refuses (as a harness bug) log names that are not plain file names, before anything is written. */
export function checkLogNames(logs: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(logs)) {
    if (!LOG_NAME.test(name)) throw new EvolveError("internal", `refusing log name ${JSON.stringify(name)}`);
  }
}

export interface RecordFolder {
  /** Where the folder goes; it must not exist yet. */
  dir: string;
  id: string;
  /** The record's file name in the folder and its text. */
  recordFile: string;
  recordText: string;
  snapshotHash: string | null;
}

/** Stages `folder` with `files`, checks the snapshot's hash, and renames it into place. */
export async function writeRecordFolder(folder: RecordFolder, files: GenerationFiles): Promise<void> {
  checkLogNames(files.logs);
  const temp = tempPathFor(folder.dir);
  try {
    await mkdir(temp);
    if (files.snapshotDir !== null) {
      await copyTree(files.snapshotDir, join(temp, SNAPSHOT_DIR));
      const hash = await hashDirectory(join(temp, SNAPSHOT_DIR));
      if (hash !== folder.snapshotHash) throw new EvolveError("internal", `${folder.id}: snapshot hash ${hash} differs from the record's ${folder.snapshotHash}`);
    }
    await writeFileSynced(join(temp, PATCH_FILE), files.patch);
    await writeFileSynced(join(temp, TRANSCRIPT_FILE), files.transcript.map((e) => `${JSON.stringify(e)}\n`).join(""));
    if ((files.solveTranscript?.length ?? 0) > 0) await writeFileSynced(join(temp, SOLVE_TRANSCRIPT_FILE), (files.solveTranscript ?? []).map((e) => `${JSON.stringify(e)}\n`).join(""));
    await mkdir(join(temp, LOGS_DIR));
    for (const [name, text] of Object.entries(files.logs)) await writeFileSynced(join(temp, LOGS_DIR, name), text);
    await writeFileSynced(join(temp, folder.recordFile), folder.recordText);
    await syncDirectory(temp);
    await rename(temp, folder.dir);
    await syncDirectory(dirname(folder.dir));
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}
