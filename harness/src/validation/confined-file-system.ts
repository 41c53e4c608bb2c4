/**
 * A read-only ts-morph FileSystemHost that only sees the agent tree being compiled and the
 * harness's own toolchain folders. The tree appears at TREE_ROOT, whatever its folder on disk,
 * so the compiler keeps one tree's unchanged files parsed and bound for the next (and no host
 * path of it reaches a diagnostic). Inside the tree, the root reads as an ES module package
 * (`{"type":"module"}`) and every other package.json is invisible, so NodeNext treats the
 * whole tree as ESM whatever the agent wrote.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import * as tsMorph from "ts-morph";
import type { FileSystemHost, RuntimeDirEntry } from "ts-morph";

const ESM_PACKAGE_JSON = '{ "type": "module" }\n';

// ts-morph tells "absent" from "broken" by this class, exported at run time but not in its types.
const FileNotFoundError = (tsMorph as unknown as { FileNotFoundError?: new (path: string) => Error }).FileNotFoundError;

function notFound(path: string): Error {
  if (FileNotFoundError !== undefined) return new FileNotFoundError(path);
  return Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: "ENOENT" });
}

function readOnly(): never {
  throw new Error("the validation file system is read-only");
}

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Where the compiler sees the agent tree: a path no host folder is read at. */
export const TREE_ROOT = "/__evolve_agent_tree__";

/** The file system the shared compiler sees; `setTree` switches the agent tree shown at TREE_ROOT. */
export class ConfinedFileSystem implements FileSystemHost {
  readonly #toolRoots: string[];
  #tree: string | null = null;

  constructor(toolRoots: string[]) {
    this.#toolRoots = toolRoots.map((root) => resolve(root));
    const shadowed = this.#toolRoots.find((root) => within(TREE_ROOT, root));
    if (shadowed !== undefined) throw new Error(`the toolchain at ${shadowed} is inside ${TREE_ROOT}, where the compiler sees agent trees`);
  }

  /** Show the folder `treeDir` (on disk) at TREE_ROOT; null shows no tree. */
  setTree(treeDir: string | null): void {
    this.#tree = treeDir === null ? null : resolve(treeDir);
  }

  #visible(path: string): "tree-package" | "hidden" | "real" {
    const abs = resolve(path);
    if (within(TREE_ROOT, abs)) {
      if (this.#tree === null) return "hidden";
      if (abs === join(TREE_ROOT, "package.json")) return "tree-package";
      if (abs.endsWith(`${sep}package.json`)) return "hidden";
      return "real";
    }
    if (this.#toolRoots.some((root) => within(root, abs))) return "real";
    // Ancestors of visible roots must exist as folders for module resolution to walk up.
    return "hidden";
  }

  /** Where a visible path is read on disk: a tree path in the tree's folder, any other as it is. */
  #onDisk(path: string): string {
    const abs = resolve(path);
    return this.#tree !== null && within(TREE_ROOT, abs) ? join(this.#tree, relative(TREE_ROOT, abs)) : abs;
  }

  isCaseSensitive(): boolean {
    return true;
  }
  readDirSync(dirPath: string): RuntimeDirEntry[] {
    if (this.#visible(dirPath) !== "real") throw notFound(dirPath);
    return readdirSync(this.#onDisk(dirPath), { withFileTypes: true }).map((entry) => ({
      name: join(dirPath, entry.name),
      isFile: entry.isFile(),
      isDirectory: entry.isDirectory(),
      isSymlink: entry.isSymbolicLink(),
    }));
  }
  readFileSync(filePath: string): string {
    switch (this.#visible(filePath)) {
      case "tree-package":
        return ESM_PACKAGE_JSON;
      case "hidden":
        throw notFound(filePath);
      case "real":
        try {
          return readFileSync(this.#onDisk(filePath), "utf8");
        } catch {
          throw notFound(filePath);
        }
    }
  }
  readFile(filePath: string): Promise<string> {
    return Promise.resolve().then(() => this.readFileSync(filePath));
  }
  fileExistsSync(filePath: string): boolean {
    switch (this.#visible(filePath)) {
      case "tree-package":
        return true;
      case "hidden":
        return false;
      case "real":
        return statSync(this.#onDisk(filePath), { throwIfNoEntry: false })?.isFile() ?? false;
    }
  }
  fileExists(filePath: string): Promise<boolean> {
    return Promise.resolve(this.fileExistsSync(filePath));
  }
  directoryExistsSync(dirPath: string): boolean {
    const abs = resolve(dirPath);
    const roots = this.#tree === null ? this.#toolRoots : [TREE_ROOT, ...this.#toolRoots];
    const isAncestor = roots.some((root) => within(abs, root));
    if (!isAncestor && this.#visible(abs) !== "real") return false;
    return statSync(this.#onDisk(abs), { throwIfNoEntry: false })?.isDirectory() ?? false;
  }
  directoryExists(dirPath: string): Promise<boolean> {
    return Promise.resolve(this.directoryExistsSync(dirPath));
  }
  realpathSync(path: string): string {
    // The tree has no links (policy) and is seen only at TREE_ROOT; toolchain paths are trusted.
    if (within(TREE_ROOT, resolve(path))) return path;
    return this.#visible(path) === "real" ? realpathSync(path) : path;
  }
  getCurrentDirectory(): string {
    return this.#tree === null ? "/" : TREE_ROOT;
  }
  glob(): Promise<string[]> {
    return Promise.resolve([]);
  }
  globSync(): string[] {
    return [];
  }
  delete(): Promise<void> {
    return readOnly();
  }
  deleteSync(): void {
    readOnly();
  }
  writeFile(): Promise<void> {
    return readOnly();
  }
  writeFileSync(): void {
    readOnly();
  }
  mkdir(): Promise<void> {
    return readOnly();
  }
  mkdirSync(): void {
    readOnly();
  }
  move(): Promise<void> {
    return readOnly();
  }
  moveSync(): void {
    readOnly();
  }
  copy(): Promise<void> {
    return readOnly();
  }
  copySync(): void {
    readOnly();
  }
}
