/**
 * An archive folder that cannot be written is a harness failure with words: which folder,
 * why (read-only, not a folder, no space, permission), what to do. Commands that write a run
 * (run, resume, report, approve, reject) probe their folder before they start, and a write
 * that fails later (a disk that fills up mid-run) is put in the same words.
 */
import { randomBytes } from "node:crypto";
import { rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { EvolveError } from "../kernel/index.js";

/** Why a write failed, for the errno codes that mean "this folder cannot take it". */
const REASONS: Record<string, string> = {
  EROFS: "the file system there is read-only",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  ENOTDIR: "it is a file, not a folder",
};

/** What the person can do, per reason. */
function whatToDo(code: string, purpose: WritePurpose): string {
  const elsewhere = ELSEWHERE[purpose];
  switch (code) {
    case "EROFS":
      return `remount it read-write, or ${elsewhere}`;
    case "EACCES":
    case "EPERM":
      return `make it writable for user ${currentUser()} (chmod / chown), or ${elsewhere}`;
    case "ENOSPC":
    case "EDQUOT":
      return `free some space there (evolve clean, or remove old runs), or ${elsewhere}`;
    default:
      return purpose === "new-run" ? "give --out a folder (or a path that does not exist yet)" : elsewhere;
  }
}

/** A new run's archive root (--out), an existing run folder, or any other folder the harness writes. */
export type WritePurpose = "new-run" | "run" | "other";

const ELSEWHERE: Record<WritePurpose, string> = {
  "new-run": "give --out a folder you can write (default: generations/ in the current folder)",
  run: "copy the run folder somewhere writable and name that copy",
  other: "point evolve at a writable folder (TMPDIR for temporary files)",
};

const WHERE: Record<WritePurpose, string> = { "new-run": "the archive in", run: "the run folder", other: "in" };

function currentUser(): string {
  return process.env["USER"] ?? `uid ${process.getuid?.() ?? "?"}`;
}

/**
 * The error in words when `error` is a file-system refusal to write in `folder`, else null.
 * `EEXIST` on a path that is a file counts as "not a folder".
 */
export function unwritableArchive(error: unknown, folder: string, purpose: WritePurpose): EvolveError | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== "string") return null;
  const known = code === "EEXIST" ? "ENOTDIR" : code;
  const reason = REASONS[known];
  if (reason === undefined) return null;
  return new EvolveError("archive_unwritable", `cannot write ${WHERE[purpose]} ${folder}: ${reason}`, { cause: error, hint: whatToDo(known, purpose) });
}

/** The nearest path at or above `path` that exists, and what it is. */
async function nearestExisting(path: string): Promise<{ path: string; isDirectory: boolean }> {
  for (let at = path; ; at = dirname(at)) {
    const info = await stat(at).catch((error: NodeJS.ErrnoException) => (error.code === "ENOTDIR" ? "file-above" : null));
    if (info === "file-above") continue;
    if (info !== null) return { path: at, isDirectory: info.isDirectory() };
    if (dirname(at) === at) return { path: at, isDirectory: true };
  }
}

/**
 * Makes sure `folder` can take files, or throws the harness error in words. An existing folder
 * gets a probe file (written and removed at once); for a new run whose folder does not exist
 * yet, its nearest existing parent does, so a refused run leaves no folder behind.
 */
export async function ensureWritableFolder(folder: string, purpose: WritePurpose): Promise<void> {
  const target = resolve(folder);
  const existing = await nearestExisting(target);
  if (!existing.isDirectory) {
    throw new EvolveError("archive_unwritable", `cannot write ${WHERE[purpose]} ${target}: ${existing.path === target ? "it is" : `${existing.path} is`} a file, not a folder`, {
      hint: whatToDo("ENOTDIR", purpose),
    });
  }
  const probe = join(existing.path, `.evolve-probe-${process.pid}-${randomBytes(3).toString("hex")}`);
  try {
    await writeFile(probe, "", { flag: "wx" });
  } catch (error) {
    throw unwritableArchive(error, target, purpose) ?? error;
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}
