/**
 * Compiled builds by snapshot hash, outside the archive (the archive keeps sources only):
 * a parent's emitted JS is compiled once per process and reused by all its children. It
 * also remembers which trees passed every gate against which parent: a child whose tree is
 * one of its own ctx.evaluate drafts (the offline strategy keeps its best draft) takes the
 * draft's checks and build instead of compiling and loading the same tree again.
 *
 * A draft's build is held by its generation, not kept: most drafts are never a child (about
 * three a child, ~170 KB each), so once the generation is over (`release`) the builds only it
 * held are removed, and the scratch folder grows by the children's builds, not the drafts'.
 * Every other build (a parent's, a child's, one a child took from its draft) is kept for the
 * run. Each build has a folder of its own, so a removal never meets a later build of the same
 * tree.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { EvolveError } from "../../kernel/index.js";
import type { Validator } from "../../validation/index.js";

/** Emitted JS for agent trees, keyed by their snapshot hash. */
export interface BuildCache {
  /** The build dir of `snapshotDir` (whose hash is `hash`), compiling it on first use. */
  get(snapshotDir: string, hash: string): Promise<string>;
  /**
   * Adopts a build that validation already produced for this hash (moves the folder); returns
   * where it now is. `heldBy`: a draft's generation, which holds the build until `release`;
   * without it the build is kept for the run.
   */
  adopt(hash: string, buildDir: string, heldBy?: string): Promise<string>;
  /** Notes that the tree `hash` passed every gate (import included) as a rewrite under `checkedAs` (checkKey). */
  markChecked(checkedAs: string, hash: string): void;
  /** The build of `hash` when it passed every gate under `checkedAs`; null when it did not (yet). `heldBy` as for `adopt`. */
  checked(checkedAs: string, hash: string, heldBy?: string): Promise<string> | null;
  /** The generation `heldBy` is over: the builds that only it held, and that nothing kept, are removed. */
  release(heldBy: string): Promise<void>;
  /** Removes every cached build. */
  dispose(): Promise<void>;
}

/**
 * What a tree's checks depend on besides the tree: the parent it is checked against (the
 * policy gate's diff) and whether a tester is required. The run's policy and caps are the same
 * for every candidate of a run.
 */
export function checkKey(parentDir: string | null, requireTester: boolean): string {
  return `${parentDir ?? "(no parent)"}\u0000${requireTester ? "tester" : ""}`;
}

/** One build: its folder (once compiled or moved), and who needs it. */
interface Entry {
  dir: Promise<string>;
  /** Needed for the whole run (a parent's, a child's). */
  kept: boolean;
  /** The draft generations that hold it until they are released. */
  holders: Set<string>;
  /** The check keys (checkKey) under which the tree passed every gate. */
  passed: Set<string>;
}

/** A recorded valid snapshot compiled again (by the static gates) into `target`. */
async function compileSnapshot(validator: Validator, snapshotDir: string, staging: string, target: string): Promise<string> {
  await mkdir(dirname(staging), { recursive: true });
  const outcome = await validator.validateStatic({ childDir: snapshotDir, buildDir: staging, parentDir: null });
  if (!outcome.ok) {
    await rm(staging, { recursive: true, force: true });
    throw new EvolveError("archive_corrupt", `the recorded valid snapshot ${snapshotDir} no longer compiles: ${outcome.failure.code}: ${outcome.failure.message}`, {
      hint: "the archive or the harness's compiler changed since it was recorded",
    });
  }
  await rename(staging, target);
  return target;
}

/** The cache: builds by hash, and which draft generations hold which. */
class Builds implements BuildCache {
  readonly #builds = new Map<string, Entry>();
  // The hashes each draft generation holds, so a release visits its own builds, not the run's.
  readonly #held = new Map<string, Set<string>>();
  readonly #root: string;
  readonly #validator: Validator;
  #counter = 0;

  constructor(root: string, validator: Validator) {
    this.#root = root;
    this.#validator = validator;
  }

  get(snapshotDir: string, hash: string): Promise<string> {
    const entry = this.#builds.get(hash) ?? this.#enter(hash, compileSnapshot(this.#validator, snapshotDir, join(this.#root, `.staging-${this.#counter++}`), this.#folder(hash)));
    return this.#hold(hash, entry, undefined);
  }

  adopt(hash: string, buildDir: string, heldBy?: string): Promise<string> {
    const known = this.#builds.get(hash);
    if (known !== undefined) return this.#hold(hash, known, heldBy);
    const target = this.#folder(hash);
    const moved = mkdir(this.#root, { recursive: true })
      .then(() => rename(buildDir, target))
      .then(() => target);
    return this.#hold(hash, this.#enter(hash, moved), heldBy);
  }

  markChecked(checkedAs: string, hash: string): void {
    this.#builds.get(hash)?.passed.add(checkedAs);
  }

  checked(checkedAs: string, hash: string, heldBy?: string): Promise<string> | null {
    const entry = this.#builds.get(hash);
    return entry !== undefined && entry.passed.has(checkedAs) ? this.#hold(hash, entry, heldBy) : null;
  }

  async release(heldBy: string): Promise<void> {
    const removals: Promise<unknown>[] = [];
    const hashes = this.#held.get(heldBy) ?? new Set<string>();
    this.#held.delete(heldBy);
    for (const hash of hashes) {
      const entry = this.#builds.get(hash);
      if (entry === undefined || !entry.holders.delete(heldBy) || entry.kept || entry.holders.size > 0) continue;
      this.#builds.delete(hash);
      removals.push(entry.dir.then((dir) => rm(dir, { recursive: true, force: true })).catch(() => undefined));
    }
    await Promise.all(removals);
  }

  async dispose(): Promise<void> {
    this.#builds.clear();
    this.#held.clear();
    await rm(this.#root, { recursive: true, force: true });
  }

  /** A folder per build, never reused: a removal in flight cannot meet a new build of the same tree. */
  #folder(hash: string): string {
    return join(this.#root, `${hash}-${this.#counter++}`);
  }

  /** Registers a build (synchronously, so two identical candidates never race for one folder). */
  #enter(hash: string, dir: Promise<string>): Entry {
    const entry: Entry = { dir, kept: false, holders: new Set(), passed: new Set() };
    this.#builds.set(hash, entry);
    dir.catch(() => {
      if (this.#builds.get(hash) === entry) this.#builds.delete(hash);
    });
    return entry;
  }

  /** The build for a holder: without one it is kept for the run. */
  #hold(hash: string, entry: Entry, heldBy: string | undefined): Promise<string> {
    if (heldBy === undefined) entry.kept = true;
    else {
      entry.holders.add(heldBy);
      this.#held.set(heldBy, (this.#held.get(heldBy) ?? new Set()).add(hash));
    }
    return entry.dir;
  }
}

/** A cache under `root` (a temp folder owned by this process). */
export function createBuildCache(root: string, validator: Validator): BuildCache {
  return new Builds(root, validator);
}
