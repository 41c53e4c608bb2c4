/**
 * The verified-file memory kept on disk, shared by every check worker of this user: a new
 * worker's first check of a tree that an earlier worker proved clean skips the type checker
 * for the files it already proved. Type-checking the seed agent the first time in a process
 * took 2.0 s of its 2.6 s first check; a warm memory leaves about 0.6 s (parsing, binding).
 *
 * What is stored is trusted: a stored file's JavaScript becomes the candidate's build without
 * being compiled again. So the folder must be this user's alone (owned by them, written by no
 * one else), or it is not used at all. Everything a check reads from it comes from this
 * harness's own compiler, never from an agent. Entries live under a namespace that hashes
 * everything else a result depends on (the compiler and its options, the toolchain's
 * declarations, the contract), so a changed toolchain never reads an old answer.
 *
 * Failures to read or write are never a check's failure: the memory is only an accelerator.
 */
import { createHash } from "node:crypto";
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** What is remembered of a clean file: its emitted JS (null for a declaration file). */
export interface VerifiedFile {
  js: string | null;
}

/** Bump when what is stored, or how TreeCompiler uses it, changes. */
const STORE_FORMAT = 1;
/** Entries kept per namespace before the oldest half is removed (one entry per proven file). */
const MAX_ENTRIES = 8_192;
/** A namespace no worker has opened for this long belongs to a toolchain no longer in use. */
const STALE_NAMESPACE_MS = 7 * 24 * 3600_000;

/** The folder of the store: EVOLVE_CACHE_DIR, else the user's cache folder; "off" turns it off. */
export function verifiedStoreRoot(env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = env["EVOLVE_CACHE_DIR"];
  if (dir === "off") return null;
  const base = dir !== undefined && dir !== "" ? resolve(dir) : join(env["XDG_CACHE_HOME"] || join(homedir(), ".cache"), "evolve");
  // No home folder would make it relative: a cache in whatever folder the command runs in.
  return isAbsolute(base) ? join(base, "verified") : null;
}

/** The namespace of a compiler set-up: a hash of every input a check's result depends on. */
export function storeNamespace(parts: Record<string, unknown>): string {
  return createHash("sha256").update(JSON.stringify({ format: STORE_FORMAT, ...parts })).digest("hex").slice(0, 24);
}

/** A folder only this user can write: owned by them, a real folder (not a link), no group or other write. */
export function privateFolder(path: string): boolean {
  const stats = lstatSync(path);
  const uid = process.getuid?.();
  return stats.isDirectory() && (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
}

/** Verified files on disk under one namespace; null when the folder cannot be made private. */
export class VerifiedStore {
  readonly #dir: string;

  private constructor(dir: string) {
    this.#dir = dir;
  }

  /** A cache key holds any characters (a signature key a NUL): its file is named by its hash. */
  #path(key: string): string {
    return join(this.#dir, createHash("sha256").update(key).digest("hex"));
  }

  static open(root: string | null, namespace: string): VerifiedStore | null {
    if (root === null) return null;
    try {
      mkdirSync(root, { recursive: true, mode: 0o700 });
      if (!privateFolder(root)) return null;
      const dir = join(root, namespace);
      mkdirSync(dir, { mode: 0o700, recursive: true });
      if (!privateFolder(dir)) return null;
      forgetStale(root, namespace);
      trim(dir);
      return new VerifiedStore(dir);
    } catch {
      return null;
    }
  }

  read(key: string): VerifiedFile | undefined {
    try {
      const value: unknown = JSON.parse(readFileSync(this.#path(key), "utf8"));
      if (typeof value !== "object" || value === null || !("js" in value)) return undefined;
      const { js } = value;
      return typeof js === "string" || js === null ? { js } : undefined;
    } catch {
      return undefined;
    }
  }

  write(key: string, value: VerifiedFile): void {
    const path = this.#path(key);
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      const fd = openSync(temporary, "w", 0o600);
      try {
        writeSync(fd, JSON.stringify({ js: value.js }));
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
    } catch {
      rmSync(temporary, { force: true });
    }
  }
}

/** Removes the other namespaces nobody opened for a week (an older compiler's answers). */
function forgetStale(root: string, namespace: string): void {
  const now = Date.now();
  for (const name of readdirSync(root)) {
    if (name === namespace) continue;
    const path = join(root, name);
    if (now - statSync(path).mtimeMs > STALE_NAMESPACE_MS) rmSync(path, { recursive: true, force: true });
  }
  // Opening marks this namespace as in use.
  const at = new Date(now);
  utimesSync(join(root, namespace), at, at);
}

/** Keeps a namespace under MAX_ENTRIES: past it, the older half goes. */
function trim(dir: string): void {
  const names = readdirSync(dir);
  if (names.length <= MAX_ENTRIES) return;
  const byAge = names.map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.at - b.at);
  for (const { name } of byAge.slice(0, names.length - MAX_ENTRIES / 2)) rmSync(join(dir, name), { force: true });
}
