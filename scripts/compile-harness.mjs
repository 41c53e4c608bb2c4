// The harness compiled to JavaScript, module for module: what the packed package runs
// (scripts/build-package.mjs, into dist/) and what a checkout runs (scripts/checkout-build.mjs,
// into .evolve-cache/harness/<key>/).
//
// Each trusted .ts file under harness/src, sandbox/src and sandbox/runner becomes one .js
// file at the same place under the output folder (types stripped by esbuild, imports left as
// written: the source already imports "./x.js"), so `import()` still loads one module at a time
// and a command loads only what it uses. Files the code reads by their path beside it travel
// unchanged: the worker entries (.mjs), the agent contract (.d.ts) and the report page's
// source (esbuild transforms it when a report is written). The output is built in a temporary
// folder renamed into place, so it is whole or absent.
//
// Beside it, inspect/: the commands people type to read an archive (INSPECT_COMMANDS) and the
// CLI's entry, bundled with zod inside into one CommonJS file, and V8's code cache for it
// (bin/inspect-bundle.js): loading ~190 modules one by one (95 of them zod's) instead cost
// `evolve ls` on a 1,000-generation archive a fifth of its time (0.47 s against 0.38 s), and
// compiling the bundle's source without the cache another 8 % (README, "Benchmarks"). These
// commands load nothing beside their own code, so a bundle serves them whole. bin/evolve.js
// sends every other command to the module-per-module copy, whose code finds the files it
// loads (worker entries, loader hooks, the contract) beside itself.
import { execFile } from "node:child_process";
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { BUNDLE } from "../bin/inspect-bundle.js";

const SOURCES = ["harness/src", "sandbox/src", "sandbox/runner"];
const CLI_ENTRY = "harness/src/cli/main.ts";
const COMMANDS_TABLE = "harness/src/cli/commands/index.ts";

/**
 * The commands the inspect bundle serves, by the module that holds each: the ones that only
 * read (and, approve and reject, record a decision in) the archive. Their static imports
 * stay inside the archive's readers (tests/architecture/light-commands.test.ts).
 */
export const INSPECT_COMMANDS = { ls: "ls", show: "show", tree: "tree", diff: "diff", lineage: "lineage", pending: "pending", approve: "decisions", reject: "decisions", cat: "cat" };
/** Run before the inspect bundle's own code: zod's settings for one-shot commands. */
const INSPECT_ZOD_CONFIG = "scripts/inspect-zod-config.mjs";
/** Makes the inspect bundle's code cache. */
const INSPECT_CODE_CACHE = "scripts/inspect-code-cache.mjs";
/**
 * The files beside this one that shape the inspect bundle and its code cache, for
 * checkout-build's key: bin/evolve.js's first line holds the V8 flags the cache is made under.
 */
export const INSPECT_BUILD_FILES = [INSPECT_ZOD_CONFIG, INSPECT_CODE_CACHE, "bin/inspect-bundle.js", "bin/evolve.js"];
/** What the bundle writes beside itself: the command names it serves, for bin/evolve.js. */
export const INSPECT_MANIFEST = "inspect/commands.json";
const REPORT_PAGE = "harness/src/report/page/";

/** Repository-relative paths under `root`: what to compile and what to copy as it is. */
export async function plan(root) {
  const compile = [];
  const copy = [];
  for (const folder of SOURCES) {
    for (const entry of await readdir(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name).slice(root.length + 1).split("\\").join("/");
      if (path.startsWith(REPORT_PAGE)) copy.push(path);
      else if (path.endsWith(".test.ts")) continue;
      else if (path.endsWith(".d.ts") || path.endsWith(".mjs")) copy.push(path);
      else if (path.endsWith(".ts")) compile.push(path);
    }
  }
  return { compile: compile.sort(), copy: copy.sort() };
}

/**
 * Compiles `root`'s harness into `out`. With `replace`, an `out` already there is replaced;
 * without, one already there is kept (another process built the same sources first) and
 * this build is dropped. `files` is plan(root) when the caller has it already. Returns the
 * numbers of modules compiled and files copied.
 */
export async function compileInto(root, out, { replace, files }) {
  const { compile, copy } = files ?? (await plan(root));
  const staging = `${out}.tmp-${process.pid}-${Date.now()}`;
  await rm(staging, { recursive: true, force: true });
  try {
    // Loaded here, not with this module: the checkout's CLI reads plan() at every start.
    const { build } = await import("esbuild");
    await build({
      absWorkingDir: root,
      entryPoints: compile,
      outdir: staging,
      outbase: ".",
      bundle: false,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "warning",
    });
    for (const path of copy) {
      await mkdir(dirname(join(staging, path)), { recursive: true });
      await cp(join(root, path), join(staging, path));
    }
    await bundleInspect(build, root, staging);
    await makeCodeCache(root, staging, out);
    if (replace) await rm(out, { recursive: true, force: true });
    await mkdir(dirname(out), { recursive: true });
    try {
      await rename(staging, out);
    } catch (error) {
      // Another process renamed its build of the same sources into place first.
      if (replace || !["ENOTEMPTY", "EEXIST"].includes(error.code)) throw error;
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { compiled: compile.length, copied: copy.length };
}

/**
 * zod's namespace carries its ~40 message locales (`z.locales`): 368 KB of the 768 KB zod put
 * into the bundle, read and compiled at every start. The harness never switches zod's
 * language and zod registers English itself (classic/schemas.js), so the bundle's
 * `locales` holds English alone. Only the bundle: the module-per-module copy imports zod whole.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(join("node_modules", "zod")) ? { path: join(args.resolveDir, args.path, "../en.js"), namespace: "zod-locales" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: dirname(args.path) }));
  },
};

/**
 * node:crypto, loaded at its first call instead of when the bundle starts: ~13 of Node's own
 * modules, ~5 ms of every start, which an inspect command needs only when it writes (a
 * temporary file's name, a snapshot's hash). Each function of node:crypto becomes one that
 * loads it and calls through; a value that is not a function is left out, so importing one
 * fails the build rather than the command.
 */
const cryptoOnFirstCall = {
  name: "crypto-on-first-call",
  setup(b) {
    // The stand-in's own require is of the real module.
    b.onResolve({ filter: /^node:crypto$/ }, (args) =>
      args.namespace === "crypto-on-first-call" ? { path: args.path, external: true } : { path: args.path, namespace: "crypto-on-first-call" },
    );
    b.onLoad({ filter: /.*/, namespace: "crypto-on-first-call" }, async () => {
      const crypto = await import("node:crypto");
      const names = Object.keys(crypto).filter((name) => name !== "default" && typeof crypto[name] === "function");
      // `require` is the bundle's own (CommonJS); a constructor called through `new` returns the real instance.
      const contents = names.map((name) => `export function ${name}(...args) { return require("node:crypto").${name}(...args); }`).join("\n");
      return { contents, loader: "js" };
    });
  },
};

/**
 * The inspect bundle (see the top of this file) into `out`/inspect/. Every package but zod
 * stays outside (none of them is on an inspect command's path; dockerode's ssh2 has native
 * parts). The table's other commands become a module that says they are not here, so the
 * bundle holds none of a run's machinery; bin/evolve.js never asks it for them.
 * CommonJS, because only a script takes a code cache in Node 20; `import.meta` becomes the
 * bundle's own file, as it was each chunk's when the bundle was ES modules.
 */
async function bundleInspect(build, root, out) {
  const { dependencies } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  const bundledModules = new Set(Object.values(INSPECT_COMMANDS).map((m) => `./${m}.js`));
  await build({
    absWorkingDir: root,
    entryPoints: [CLI_ENTRY],
    outfile: join(out, BUNDLE),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: Object.keys(dependencies).filter((name) => name !== "zod"),
    inject: [join(root, INSPECT_ZOD_CONFIG)],
    define: { "import.meta.dirname": "__dirname", "import.meta.url": "__bundleUrl" },
    banner: { js: `var __bundleUrl = require("node:url").pathToFileURL(__filename).href;` },
    logLevel: "warning",
    plugins: [
      zodEnglishOnly,
      cryptoOnFirstCall,
      {
        name: "other-commands-outside",
        setup(b) {
          b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => {
            if (!args.importer.endsWith(COMMANDS_TABLE) || bundledModules.has(args.path)) return undefined;
            return { path: `harness/src/cli/commands/${args.path.slice(2)}`, namespace: "module-copy-only" };
          });
          b.onLoad({ filter: /.*/, namespace: "module-copy-only" }, (args) => ({
            contents: `throw new Error(${JSON.stringify(`the inspect bundle does not hold ${args.path}: bin/evolve.js runs that command from the module-per-module copy`)});`,
          }));
        },
      },
    ],
  });
  await writeFile(join(out, INSPECT_MANIFEST), `${JSON.stringify(Object.keys(INSPECT_COMMANDS))}\n`);
}

/**
 * The bundle's code cache, made by a node started with the V8 flags of bin/evolve.js's first
 * line, since V8 takes a cache only under the flags it was made with; NODE_OPTIONS is left
 * out so that the builder's own settings do not end up in it. `staging` becomes `out`.
 */
async function makeCodeCache(root, staging, out) {
  const words = (await readFile(join(root, "bin/evolve.js"), "utf8")).split("\n", 1)[0].split(/\s+/);
  if (!words.includes("node")) throw new Error("bin/evolve.js's first line does not start node");
  const flags = words.slice(words.indexOf("node") + 1);
  const { NODE_OPTIONS, ...env } = process.env;
  await promisify(execFile)(process.execPath, [...flags, join(root, INSPECT_CODE_CACHE), root, staging, out], { env, timeout: 60_000 });
}
