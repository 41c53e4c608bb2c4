/**
 * The agent tree as it is now, for the host to take out with the message that asks for it (an
 * evaluate request, improve's result) instead of through Docker's archive API: that costs the
 * engine a re-executed tar of the volume, ~55 ms and ~70 CPU-ms a take on this project's
 * machine. The host treats what arrives as hostile, exactly like the archive (its safe
 * extractor's rules and caps); an agent that forges one only hands in its own tree.
 *
 * Anything the archive path would have to judge (a link, a hard link, a special file, a tree
 * over the limits here) makes this return null: the host then takes the tree through Docker as before,
 * and its extractor refuses or accepts it as it always did.
 */
import { closeSync, constants, fstatSync, openSync, opendirSync, readSync } from "node:fs";
import { join } from "node:path";
import type { WorkspaceTree } from "./protocol.js";

/** The most bytes of files one snapshot carries; a larger tree goes through Docker. */
export const TREE_SNAPSHOT_BYTES = 1024 * 1024;
/**
 * The most stdout all snapshots of one container take together, as JSON: the host widens the
 * improve container's stdout cap by this, so snapshots never count against the agent's own.
 */
export const TREE_SNAPSHOTS_STDOUT_BYTES = 6 * 1024 * 1024;
/** The most entries (files and folders) one snapshot carries, as the extractor's default cap. */
const TREE_SNAPSHOT_ENTRIES = 2_000;

/** Snapshots of one folder, within one budget for all of them together. */
export function createTreeSnapshots(root: string): () => Promise<WorkspaceTree | null> {
  let budget = TREE_SNAPSHOTS_STDOUT_BYTES;
  return async () => {
    try {
      const read = readTree(root, TREE_SNAPSHOT_BYTES);
      if (read === null) return null;
      const tree = { dirs: read.dirs, files: read.files };
      // Its bytes on the wire, with the field name and the JSON around it.
      const size = Buffer.byteLength(JSON.stringify({ tree }));
      if (size > budget) return null;
      budget -= size;
      return tree;
    } catch {
      return null; // whatever went wrong, the archive path still works
    }
  };
}

/**
 * Synchronous file calls: a tree is a few dozen small files, and each await on the thread pool
 * cost more than the read itself (four per file); the agent is waiting for its answer meanwhile.
 */
function readTree(root: string, maxBytes: number): (WorkspaceTree & { bytes: number }) | null {
  const dirs: string[] = [];
  const files: WorkspaceTree["files"] = [];
  let bytes = 0;
  const walk = (absolute: string, relative: string): boolean => {
    // Read entry by entry: a folder of a million files is left after the first 2,000.
    const dir = opendirSync(absolute);
    try {
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        if (dirs.length + files.length >= TREE_SNAPSHOT_ENTRIES) return false;
        const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
        if (entry.isDirectory()) {
          dirs.push(path);
          if (!walk(join(absolute, entry.name), path)) return false;
        } else if (entry.isFile()) {
          const data = readRegularFile(join(absolute, entry.name), maxBytes - bytes);
          if (data === null) return false;
          bytes += data.length;
          files.push({ path, base64: data.toString("base64") });
        } else {
          return false; // a link or a special file: the archive path's extractor judges it
        }
      }
      return true;
    } finally {
      dir.closeSync();
    }
  };
  return walk(root, "") ? { dirs, files, bytes } : null;
}

/**
 * A regular file's bytes, at most `maxBytes`, or null. Opened without following a link and
 * without blocking (a FIFO swapped in after the listing must not hang the runner), and checked
 * to be a regular file on the open descriptor itself.
 */
function readRegularFile(path: string, maxBytes: number): Buffer | null {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    // A hard link (nlink > 1) is the archive's to refuse, as it always was.
    if (!stat.isFile() || stat.nlink !== 1 || stat.size > maxBytes) return null;
    const data = Buffer.alloc(stat.size);
    const bytesRead = stat.size === 0 ? 0 : readSync(fd, data, 0, stat.size, 0);
    // A file that changed size while it was read is taken through the archive.
    return bytesRead === stat.size ? data : null;
  } finally {
    closeSync(fd);
  }
}
