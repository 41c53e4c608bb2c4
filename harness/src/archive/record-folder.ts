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
  /**
   * `snapshotDir` is the caller's scratch folder, not read after the write: it is moved into
   * the record (a rename, ~0.02 ms) instead of copied (~24 ms for the seed's 36 files); on
   * another filesystem it is copied. Without it the folder is copied and left as it was.
   */
  readonly moveSnapshot?: boolean;
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

/** Puts the snapshot at `target`: moved when the caller allows it and the filesystem does, else copied. */
async function placeSnapshot(from: string, target: string, move: boolean): Promise<void> {
  if (move) {
    try {
      await rename(from, target);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    }
  }
  await copyTree(from, target);
}

/** Stages `folder` with `files`, checks the snapshot's hash, and renames it into place. */
export async function writeRecordFolder(folder: RecordFolder, files: GenerationFiles): Promise<void> {
  checkLogNames(files.logs);
  const temp = tempPathFor(folder.dir);
  try {
    await mkdir(temp);
    if (files.snapshotDir !== null) {
      await placeSnapshot(files.snapshotDir, join(temp, SNAPSHOT_DIR), files.moveSnapshot === true);
      // Read back from its place in the record, moved or copied: what is archived is what was hashed.
      const hash = await hashDirectory(join(temp, SNAPSHOT_DIR));
      if (hash !== folder.snapshotHash) throw new EvolveError("internal", `${folder.id}: snapshot hash ${hash} differs from the record's ${folder.snapshotHash}`);
    }
    await mkdir(join(temp, LOGS_DIR));
    const lines = (entries: readonly TranscriptLine[]): string => entries.map((e) => `${JSON.stringify(e)}\n`).join("");
    const texts: [string, string][] = [
      [PATCH_FILE, files.patch],
      [TRANSCRIPT_FILE, lines(files.transcript)],
      ...((files.solveTranscript?.length ?? 0) > 0 ? [[SOLVE_TRANSCRIPT_FILE, lines(files.solveTranscript ?? [])] as [string, string]] : []),
      ...Object.entries(files.logs).map(([name, text]): [string, string] => [join(LOGS_DIR, name), text]),
      [folder.recordFile, folder.recordText],
    ];
    // Each file is synced before the folder is renamed in; at once, so the disk flushes them
    // together. Every write settles before a failure is thrown, so the cleanup below meets none.
    const written = await Promise.allSettled(texts.map(([path, text]) => writeFileSynced(join(temp, path), text)));
    for (const w of written) if (w.status === "rejected") throw w.reason;
    await Promise.all([syncDirectory(join(temp, LOGS_DIR)), syncDirectory(temp)]);
    await rename(temp, folder.dir);
    await syncDirectory(dirname(folder.dir));
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}
