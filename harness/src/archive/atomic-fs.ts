/** Write-then-rename helpers: a reader sees the old file or the new one, never half of one. */
import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Prefix of every temporary file or folder the archive writes; swept when a run is opened. */
export const TEMP_PREFIX = ".tmp-";

/** A fresh temporary name beside `target`, in the same folder so rename stays atomic. */
export function tempPathFor(target: string): string {
  return join(dirname(target), `${TEMP_PREFIX}${basename(target)}-${process.pid}-${randomBytes(4).toString("hex")}`);
}

/** Writes `contents` to a file, flushing it to disk before returning. */
export async function writeFileSynced(path: string, contents: string): Promise<void> {
  const handle = await open(path, "wx");
  try {
    await handle.writeFile(contents);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a directory's entries (the renames into it) to disk. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `target` with `contents` atomically. */
export async function writeFileAtomic(target: string, contents: string): Promise<void> {
  const temp = tempPathFor(target);
  try {
    await writeFileSynced(temp, contents);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(target));
}

/** Pretty JSON with a final newline, as every archive record is stored. */
export function toJsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
