/**
 * V8 code caches for the toolchain's large CommonJS files (ts-morph and the TypeScript it
 * bundles, TypeScript itself). An agent that checks its edits loads ts-morph, and Node parses
 * and compiles its ~13 MB at every container start; the caches save about a quarter of a second
 * of CPU in each self-modification container (bench:cpu), and the code-test container's
 * compiler (exec-main.ts) uses them too. The runtime image carries a cache per file, made when the image
 * is built (sandbox/src/docker/toolchain-code-cache.ts runs `makeCodeCaches` in a fresh Node, the
 * binary the image copies, with no flags, as the container runs it); the runner installs
 * `useCodeCache` before any agent code loads, so `require` of one of those files compiles it
 * with its cache.
 *
 * Only the exact files the manifest names are served this way, by their absolute paths in the
 * image's read-only root: an agent's own copy of a package elsewhere loads as Node loads it.
 * V8 checks a cache against its own version, the source's length and the process's V8 flags,
 * and compiles the source as usual when one does not match; a missing manifest or cache file
 * means no cache. So the cache changes how fast a file loads, never what it does.
 */
import Module, { createRequire } from "node:module";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

/** The caches' folder: code-cache/ beside the runner's folder (/opt/evolve/code-cache in the image). */
export const CODE_CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "code-cache");
const MANIFEST = "manifest.json";

/** The toolchain files that get a cache, relative to the image's /node_modules. */
export const CACHED_FILES = [
  "ts-morph/dist/ts-morph.js",
  "@ts-morph/common/dist/ts-morph-common.js",
  "@ts-morph/common/dist/typescript.js",
  "typescript/lib/typescript.js",
];

/** Manifest: each file's path in the image, and its cache's file name in CODE_CACHE_DIR. */
type Manifest = Record<string, string>;

/** What became of each served file's cache when it loaded: V8 used it, refused it, or there was none. */
export type CacheOutcome = "used" | "rejected" | "missing";
const outcomes = new Map<string, CacheOutcome>();

/** The outcome of every served file loaded so far, by path (tests and benchmarks read it). */
export function codeCacheOutcomes(): Record<string, CacheOutcome> {
  return Object.fromEntries(outcomes);
}

type Loader = (module: NodeJS.Module, filename: string) => void;
// Node's loader for .js files (undocumented, present from Node 0.x to 24): the one place a
// CommonJS file's compilation can be taken over for every way it is reached (require, or an
// ES module's import of a CommonJS package).
const extensions = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;

/**
 * Compiles and runs the CommonJS file `source` for `module`, as Node would: the same wrapper on
 * the source's first line (so line numbers stay), a `require` that resolves from the file.
 */
function runCommonJs(module: NodeJS.Module, filename: string, label: string, source: string, cachedData: Buffer | undefined): vm.Script {
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: label, cachedData });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
  return script;
}

function readManifest(dir: string): Manifest | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as unknown;
    return parsed !== null && typeof parsed === "object" ? (parsed as Manifest) : null;
  } catch {
    return null;
  }
}

/**
 * Installs the caches of `dir`'s manifest (no manifest: nothing changes). Returns how many
 * files it serves.
 */
export function useCodeCache(dir = CODE_CACHE_DIR): number {
  const manifest = readManifest(dir);
  if (manifest === null) return 0;
  const served = new Map(Object.entries(manifest).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const plain = extensions[".js"]!;
  extensions[".js"] = (module, filename) => {
    const cacheFile = served.get(filename);
    if (cacheFile === undefined) return plain(module, filename);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(join(dir, cacheFile));
    } catch {
      // No cache: V8 compiles the source.
    }
    const script = runCommonJs(module, filename, filename, readFileSync(filename, "utf8"), cachedData);
    outcomes.set(filename, cachedData === undefined ? "missing" : script.cachedDataRejected === true ? "rejected" : "used");
  };
  return served.size;
}

/**
 * Makes the caches for an image whose root folder is being staged at `rootfs`: loads ts-morph and
 * TypeScript from `rootfs`/node_modules under the names they will have in the image, uses them
 * as an agent checking its edits does (so V8 has compiled those functions too), and writes each
 * file's cache and the manifest into `cacheDir` (by default CODE_CACHE_DIR: run from the staged
 * runner, that is the staged image's folder). Returns the image paths it cached. Run in a fresh
 * Node with the image's binary and no flags: V8 takes a cache only under the same flags.
 */
export function makeCodeCaches(stagedRoot: string, cacheDir = CODE_CACHE_DIR): string[] {
  // Node names a loaded file by its real path, so the staged root is compared by its own.
  const rootfs = realpathSync(stagedRoot);
  const scripts = new Map<string, vm.Script>();
  const inImage = (path: string): string => `/${path.slice(rootfs.length).replace(/^\/+/, "")}`;
  const plain = extensions[".js"]!;
  const cached = new Set(CACHED_FILES.map((file) => join(rootfs, "node_modules", file)));
  extensions[".js"] = (module, filename) => {
    if (!cached.has(filename)) return plain(module, filename);
    scripts.set(inImage(filename), runCommonJs(module, filename, inImage(filename), readFileSync(filename, "utf8"), undefined));
  };
  const load = createRequire(join(rootfs, "node_modules", "index.js"));
  exerciseToolchain(load("ts-morph") as typeof import("ts-morph"), load("typescript") as typeof import("typescript"));
  extensions[".js"] = plain;

  mkdirSync(cacheDir, { recursive: true });
  const manifest: Manifest = {};
  for (const [path, script] of scripts) {
    const name = `${path.replace(/^\/node_modules\//, "").replace(/[^A-Za-z0-9.-]+/g, "_")}.v8-cache`;
    writeFileSync(join(cacheDir, name), script.createCachedData());
    manifest[path] = name;
  }
  writeFileSync(join(cacheDir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return Object.keys(manifest);
}

/**
 * What the toolchain's users in a container do with it: an agent checking its edits (ts-morph:
 * transpile, type-check a file, edit a node), and a code-test container type-checking an answer
 * (TypeScript: a program of one file).
 */
function exerciseToolchain(tsMorph: typeof import("ts-morph"), typescript: typeof import("typescript")): void {
  const { Project, SyntaxKind, ts } = tsMorph;
  const text = [
    "export interface Options { readonly limit: number; names?: string[] }",
    "const DEFAULTS: Options = { limit: 10 };",
    "export function solve(input: string, options: Options = DEFAULTS): number {",
    "  const parts = input.split(',').map((part) => part.trim()).filter((part) => part.length > 0);",
    "  return Math.min(parts.length, options.limit) * 0.5;",
    "}",
  ].join("\n");
  ts.transpileModule(text, { fileName: "solve.ts", reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { strict: true, noUncheckedIndexedAccess: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ["lib.es2023.d.ts"], noEmit: true },
  });
  const file = project.createSourceFile("/tree/solve.ts", text);
  file.getPreEmitDiagnostics();
  file.getDescendantsOfKind(SyntaxKind.NumericLiteral)[0]?.replaceWithText("12");
  file.getPreEmitDiagnostics();

  const options = { strict: true, target: typescript.ScriptTarget.ES2022, lib: ["lib.es2022.d.ts"], noEmit: true };
  const host = typescript.createCompilerHost(options);
  const readFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) => (name === "/answer/solve.ts" ? typescript.createSourceFile(name, text, language) : readFile(name, language));
  typescript.getPreEmitDiagnostics(typescript.createProgram(["/answer/solve.ts"], options, host));
}
