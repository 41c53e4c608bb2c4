#!/usr/bin/env node
// The compiled copy the packed package runs: `npm pack` calls this first (package.json
// "prepack") and `--clean` after ("postpack"), so a checkout keeps running its TypeScript
// through tsx and never holds a dist/ that could fall behind the source.
//
// Each trusted .ts file under harness/src, sandbox/src and sandbox/runner becomes one .js
// file at the same place under dist/ (types stripped by esbuild, imports left as written:
// the source already imports "./x.js"), so `import()` still loads one module at a time and a
// command loads only what it uses. Files the code reads by their path beside it travel
// unchanged: the worker entries (.mjs), the agent contract (.d.ts) and the report page's
// source (esbuild transforms it when a report is written). The build goes to a temporary
// folder renamed into place, so dist/ is whole or absent.
import { build } from "esbuild";
import { cp, mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const OUT = join(ROOT, "dist");
const SOURCES = ["harness/src", "sandbox/src", "sandbox/runner"];
const REPORT_PAGE = "harness/src/report/page/";

/** Repository-relative paths: what to compile and what to copy as it is. */
async function plan() {
  const compile = [];
  const copy = [];
  for (const root of SOURCES) {
    for (const entry of await readdir(join(ROOT, root), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name).slice(ROOT.length + 1).split("\\").join("/");
      if (path.startsWith(REPORT_PAGE)) copy.push(path);
      else if (path.endsWith(".test.ts")) continue;
      else if (path.endsWith(".d.ts") || path.endsWith(".mjs")) copy.push(path);
      else if (path.endsWith(".ts")) compile.push(path);
    }
  }
  return { compile: compile.sort(), copy: copy.sort() };
}

async function buildPackage() {
  const { compile, copy } = await plan();
  const staging = `${OUT}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    await build({
      absWorkingDir: ROOT,
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
      await cp(join(ROOT, path), join(staging, path));
    }
    await rm(OUT, { recursive: true, force: true });
    await rename(staging, OUT);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  // On stderr: `npm pack --json` keeps stdout for its JSON.
  console.error(`dist/: ${compile.length} modules compiled, ${copy.length} files copied`);
}

if (process.argv.includes("--clean")) await rm(OUT, { recursive: true, force: true });
else await buildPackage();
