/**
 * The TypeScript compiler (ts-morph's own copy, 9 MB of JavaScript) loaded through a V8 code
 * cache, so a new check worker does not compile the compiler again: V8 spent most of a
 * worker's start on TypeScript's own functions, at its load and in the warm-up's first pass.
 * The cache is made by the first worker after its warm-up (V8 then includes every function it
 * compiled so far) and read by every later one.
 *
 * A code cache is code: it lives beside the verified store, in the user's private cache
 * folder (verified-store.ts), under a name that hashes the compiler's source, Node's version
 * and the worker's V8 flags, and only this harness writes it. V8 itself refuses a cache that
 * does not fit (then the compiler loads as usual and the cache is made again). Any failure
 * here only means a slower start.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { privateFolder, verifiedStoreRoot } from "./verified-store.js";

/** Caches kept: one per compiler, Node and flag set in use; the older ones go. */
const MAX_CACHES = 4;
/** A temporary file older than this belongs to a worker that died while saving. */
const LEFTOVER_MS = 10 * 60_000;

interface Loaded {
  script: Script;
  file: string;
  /** Whether V8 used a cache at load: then there is nothing to save. */
  used: boolean;
}

let loaded: Loaded | null = null;

/** The folder of the code caches, made private; null when the cache is off or cannot be. */
function cacheFolder(env: NodeJS.ProcessEnv): string | null {
  const verified = verifiedStoreRoot(env);
  if (verified === null) return null;
  const root = dirname(verified);
  const dir = join(root, "code-cache");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return privateFolder(root) && privateFolder(dir) ? dir : null;
}

/** How the compiler was loaded: from a code cache, compiled (a cache is made after the warm-up), or left to ts-morph. */
export type CompilerLoad = "from_cache" | "compiled" | "not_preloaded";

/**
 * Loads ts-morph's TypeScript into the module cache through the code cache, before anything
 * imports ts-morph; "not_preloaded" (and nothing changed) when it could not.
 */
export function preloadCompiler(env: NodeJS.ProcessEnv = process.env): CompilerLoad {
  try {
    const dir = cacheFolder(env);
    if (dir === null) return "not_preloaded";
    const require = createRequire(import.meta.url);
    // ts-morph's common package requires its bundled compiler as './typescript'.
    const file = join(dirname(require.resolve("@ts-morph/common")), "typescript.js");
    const source = readFileSync(file, "utf8");
    const key = createHash("sha256").update(`${process.version}\0${process.arch}\0${process.execArgv.join(" ")}\0`).update(source).digest("hex").slice(0, 32);
    const cachePath = join(dir, `${key}.v8`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cachePath);
    } catch {
      cachedData = undefined;
    }
    const script = new Script(Module.wrap(source), { filename: file, cachedData });
    const module = new Module(file);
    module.filename = file;
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
    module.loaded = true;
    require.cache[file] = module;
    loaded = { script, file: cachePath, used: cachedData !== undefined && !script.cachedDataRejected };
    return loaded.used ? "from_cache" : "compiled";
  } catch {
    return "not_preloaded";
  }
}

/** After the warm-up: saves the code cache when the load did not use one. */
export function saveCompilerCodeCache(): void {
  if (loaded === null || loaded.used) return;
  const { script, file } = loaded;
  loaded = null;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, "w", 0o600);
    try {
      writeSync(fd, script.createCachedData());
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    forgetOld(dirname(file));
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** Keeps MAX_CACHES caches, and removes what a worker killed while saving left behind. */
function forgetOld(dir: string): void {
  const names = readdirSync(dir);
  for (const name of names.filter((n) => n.endsWith(".tmp"))) {
    const path = join(dir, name);
    if (Date.now() - statSync(path).mtimeMs > LEFTOVER_MS) rmSync(path, { force: true });
  }
  const caches = names.filter((name) => name.endsWith(".v8"));
  if (caches.length <= MAX_CACHES) return;
  const byAge = caches.map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.at - b.at);
  for (const { name } of byAge.slice(0, caches.length - MAX_CACHES)) rmSync(join(dir, name), { force: true });
}
