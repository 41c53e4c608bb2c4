/**
 * Compiled builds by snapshot hash, outside the archive (the archive keeps sources only):
 * a parent's emitted JS is compiled once per process and reused by all its children. It
 * also remembers which trees passed every gate against which parent: a child whose tree is
 * one of its own ctx.evaluate drafts (the offline strategy keeps its best draft) takes the
 * draft's checks and build instead of compiling and loading the same tree again.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { EvolveError } from "../../kernel/index.js";
import type { Validator } from "../../validation/index.js";

/** Emitted JS for agent trees, keyed by their snapshot hash. */
export interface BuildCache {
  /** The build dir of `snapshotDir` (whose hash is `hash`), compiling it on first use. */
  get(snapshotDir: string, hash: string): Promise<string>;
  /** Adopts a build that validation already produced for this hash (moves the folder); returns where it now is. */
  adopt(hash: string, buildDir: string): Promise<string>;
  /** Notes that the tree `hash` passed every gate (import included) as a rewrite under `checkedAs` (checkKey). */
  markChecked(checkedAs: string, hash: string): void;
  /** The build of `hash` when it passed every gate under `checkedAs`; null when it did not (yet). */
  checked(checkedAs: string, hash: string): Promise<string> | null;
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

/** A cache under `root` (a temp folder owned by this process). */
export function createBuildCache(root: string, validator: Validator): BuildCache {
  const builds = new Map<string, Promise<string>>();
  const passed = new Set<string>();
  let counter = 0;
  const compile = async (snapshotDir: string, hash: string): Promise<string> => {
    await mkdir(root, { recursive: true });
    const staging = join(root, `.staging-${counter++}`);
    const outcome = await validator.validateStatic({ childDir: snapshotDir, buildDir: staging, parentDir: null });
    if (!outcome.ok) {
      await rm(staging, { recursive: true, force: true });
      throw new EvolveError("archive_corrupt", `the recorded valid snapshot ${snapshotDir} no longer compiles: ${outcome.failure.code}: ${outcome.failure.message}`, {
        hint: "the archive or the harness's compiler changed since it was recorded",
      });
    }
    const target = join(root, hash);
    await rename(staging, target);
    return target;
  };
  return {
    get(snapshotDir, hash) {
      let build = builds.get(hash);
      if (build === undefined) {
        build = compile(snapshotDir, hash);
        builds.set(hash, build);
        build.catch(() => builds.delete(hash));
      }
      return build;
    },
    adopt(hash, buildDir) {
      const known = builds.get(hash);
      if (known !== undefined) return known;
      // Registered synchronously so two identical children never race for the same folder.
      const target = join(root, hash);
      const moved = mkdir(root, { recursive: true })
        .then(() => rename(buildDir, target))
        .then(() => target);
      builds.set(hash, moved);
      moved.catch(() => builds.delete(hash));
      return moved;
    },
    markChecked(checkedAs, hash) {
      if (builds.has(hash)) passed.add(`${checkedAs}\u0000${hash}`);
    },
    checked(checkedAs, hash) {
      return passed.has(`${checkedAs}\u0000${hash}`) ? (builds.get(hash) ?? null) : null;
    },
    async dispose() {
      builds.clear();
      passed.clear();
      await rm(root, { recursive: true, force: true });
    },
  };
}
