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
// CLI's entry, bundled into a few chunks with zod inside: loading ~190 modules one by one
// (95 of them zod's) instead cost `evolve ls` on a 1,000-generation archive a fifth of its
// time (0.47 s against 0.38 s: README, "Benchmarks"). These commands load nothing beside their own
// code, so a bundle serves them whole. bin/evolve.js sends
// every other command to the module-per-module copy, whose code finds the files it loads
// (worker entries, loader hooks, the contract) beside itself.
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

const SOURCES = ["harness/src", "sandbox/src", "sandbox/runner"];
const CLI_ENTRY = "harness/src/cli/main.ts";
const COMMANDS_TABLE = "harness/src/cli/commands/index.ts";

/**
 * The commands the inspect bundle serves, by the module that holds each: the ones that only
 * read (and, approve and reject, record a decision in) the archive. Their static imports
 * stay inside the archive's readers (tests/architecture/light-commands.test.ts).
 */
export const INSPECT_COMMANDS = { ls: "ls", show: "show", tree: "tree", diff: "diff", lineage: "lineage", pending: "pending", approve: "decisions", reject: "decisions", cat: "cat" };
/** Run before the inspect bundle's own code (zod's settings for one-shot commands); part of checkout-build's key. */
export const INSPECT_ZOD_CONFIG = "scripts/inspect-zod-config.mjs";
/** What the bundle writes beside its chunks: the command names it serves, for bin/evolve.js. */
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
 * The inspect bundle (see the top of this file) into `out`/inspect/. Every package but zod
 * stays outside (none of them is on an inspect command's path; dockerode's ssh2 has native
 * parts). The table's other commands are left as imports of the module-per-module copy, so
 * the bundle holds none of a run's machinery; bin/evolve.js never asks it for them.
 */
async function bundleInspect(build, root, out) {
  const { dependencies } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  const bundledModules = new Set(Object.values(INSPECT_COMMANDS).map((m) => `./${m}.js`));
  await build({
    absWorkingDir: root,
    entryPoints: { main: CLI_ENTRY },
    outdir: join(out, "inspect"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: Object.keys(dependencies).filter((name) => name !== "zod"),
    inject: [join(root, INSPECT_ZOD_CONFIG)],
    logLevel: "warning",
    plugins: [
      zodEnglishOnly,
      {
        name: "other-commands-outside",
        setup(b) {
          b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => {
            if (!args.importer.endsWith(COMMANDS_TABLE) || bundledModules.has(args.path)) return undefined;
            return { path: `../harness/src/cli/commands/${args.path.slice(2)}`, external: true };
          });
        },
      },
    ],
  });
  await writeFile(join(out, INSPECT_MANIFEST), `${JSON.stringify(Object.keys(INSPECT_COMMANDS))}\n`);
}
