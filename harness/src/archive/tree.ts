/**
 * Agent trees as data: a map from relative POSIX path to UTF-8 text. Agent trees are
 * TypeScript sources, so text is what diffs and patches need; a file that is not valid
 * UTF-8, a link or any other special file is refused rather than silently mangled.
 */
import { createHash } from "node:crypto";
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { EvolveError, turnAfter } from "../kernel/index.js";

/** Relative path ("task/index.ts") → file contents. */
export type Tree = ReadonlyMap<string, string>;

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * What one tree read may hold: twice the sandbox's extraction caps (2,000 entries, 16 MiB),
 * so no tree the harness recorded reaches it, while a folder given as --agent (a checkout
 * with node_modules, say) or a tampered snapshot cannot make the host read without end.
 */
export const TREE_READ_CAPS = { maxFiles: 4_000, maxTotalBytes: 32 * 1024 * 1024 } as const;

/** A tree read from disk, or why the folder is not a readable agent tree. */
export type TreeRead = { ok: true; tree: Tree } | { ok: false; reason: string };

/** What makes a folder unreadable as an agent tree: agent data, so a value, never an error. */
class NotATree {
  constructor(readonly reason: string) {}
}

// Control characters and backslashes would break a patch's headers or mean another path elsewhere.
const PORTABLE_NAME = /^[^\\/\x00-\x1f\x7f]+$/;

/**
 * Relative paths of the regular files under `root`, sorted, "/"-separated; throws NotATree.
 * Synchronous, as is readTree: an agent tree is a few dozen small files, read in about a
 * millisecond this way, where one await per call took ~7 ms of a draft's path (and its CPU).
 * readTree lets the event loop take a turn every FILES_PER_TURN files it reads.
 */
function listTreeFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (!PORTABLE_NAME.test(e.name)) throw new NotATree(`${JSON.stringify(child)}: not a portable file name`);
      if (e.isDirectory()) walk(child);
      else if (e.isFile()) {
        out.push(child);
        if (out.length > TREE_READ_CAPS.maxFiles) throw new NotATree(`${root}: more than ${TREE_READ_CAPS.maxFiles} files; not an agent tree`);
      } else throw new NotATree(`${join(root, child)}: not a regular file or directory`);
    }
  };
  walk("");
  return out.sort(comparePaths);
}

/** Byte-order comparison of paths (what the snapshot hash sorts by). */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Reads every file under `root` into a tree, or says why it is not a readable agent tree. */
export async function readTree(root: string): Promise<TreeRead> {
  try {
    const files = listTreeFiles(root);
    let total = 0;
    for (const f of files) {
      total += lstatSync(join(root, f)).size;
      if (total > TREE_READ_CAPS.maxTotalBytes) {
        return { ok: false, reason: `${root}: more than ${TREE_READ_CAPS.maxTotalBytes / (1024 * 1024)} MiB of files; not an agent tree` };
      }
    }
    const contents: Buffer[] = [];
    for (const f of files) {
      contents.push(readFileSync(join(root, f)));
      await turnAfter(contents.length);
    }
    const tree = new Map<string, string>();
    for (const [i, f] of files.entries()) {
      try {
        tree.set(f, decoder.decode(contents[i]));
      } catch {
        return { ok: false, reason: `${join(root, f)}: not valid UTF-8 text` };
      }
    }
    return { ok: true, tree };
  } catch (error) {
    if (error instanceof NotATree) return { ok: false, reason: error.reason };
    throw error;
  }
}

/** Reads a tree the harness wrote itself (a snapshot): one that does not read is a corrupt archive. */
export async function readOwnTree(root: string): Promise<Tree> {
  const read = await readTree(root);
  if (!read.ok) throw new EvolveError("archive_corrupt", read.reason, { hint: "the archive was changed outside evolve; evolve replay checks a lineage" });
  return read.tree;
}

/** A relative path that stays inside its root: no "..", no absolute, no empty parts. */
export function isSafeRelativePath(path: string): boolean {
  if (path === "" || path.startsWith("/") || path.includes("\\") || path.includes("\0")) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/** Writes a tree under `root` (which may exist; files of the tree are overwritten). */
export async function writeTree(root: string, tree: Tree): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const [path, text] of tree) {
    if (!isSafeRelativePath(path)) throw new EvolveError("internal", `refusing to write unsafe tree path ${JSON.stringify(path)}`);
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

/**
 * Copies a tree the harness already read (regular files and directories; anything else is a
 * bug). Synchronous calls for the reason readTree makes them, with the event loop's turns.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  if (!lstatSync(from).isDirectory()) throw new EvolveError("internal", `${from}: not a directory`);
  // Folders before the files in them (a walk lists a folder before its contents); each creation counts towards the turns.
  const entries: { rel: string; folder: boolean }[] = [{ rel: "", folder: true }];
  const list = (rel: string): void => {
    for (const e of readdirSync(join(from, rel), { withFileTypes: true })) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        entries.push({ rel: child, folder: true });
        list(child);
      } else if (e.isFile()) entries.push({ rel: child, folder: false });
      else throw new EvolveError("internal", `${join(from, child)}: not a regular file or directory`);
    }
  };
  list("");
  for (const [i, { rel, folder }] of entries.entries()) {
    if (folder) mkdirSync(join(to, rel), { recursive: true });
    else copyFileSync(join(from, rel), join(to, rel));
    await turnAfter(i + 1);
  }
}

/**
 * sha256 over the tree: for each path in byte order, the path, a NUL, the byte length,
 * a NUL and the bytes. Lengths make the encoding unambiguous; the sort makes it
 * independent of the order files were read or inserted.
 */
export function snapshotHash(tree: Tree): string {
  const hash = createHash("sha256");
  for (const path of [...tree.keys()].sort(comparePaths)) {
    const bytes = Buffer.from(tree.get(path) ?? "", "utf8");
    hash.update(path, "utf8");
    hash.update(`\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

/** The snapshot hash of a directory the harness wrote (archive_corrupt when it does not read). */
export async function hashDirectory(root: string): Promise<string> {
  return snapshotHash(await readOwnTree(root));
}
