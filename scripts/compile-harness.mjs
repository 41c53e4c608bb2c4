// The harness compiled to JavaScript, module for module: what the packed package runs
// (scripts/build-package.mjs, into dist/) and what a checkout runs (scripts/checkout-build.mjs,
// into node_modules/.cache/evolve/).
//
// Each trusted .ts file under harness/src, sandbox/src and sandbox/runner becomes one .js
// file at the same place under the output folder (types stripped by esbuild, imports left as
// written: the source already imports "./x.js"), so `import()` still loads one module at a time
// and a command loads only what it uses. Files the code reads by their path beside it travel
// unchanged: the worker entries (.mjs), the agent contract (.d.ts) and the report page's
// source (esbuild transforms it when a report is written). The output is built in a temporary
// folder renamed into place, so it is whole or absent.
import { cp, mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

const SOURCES = ["harness/src", "sandbox/src", "sandbox/runner"];
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
