#!/usr/bin/env node
// The compiled copy the packed package runs: `npm pack` calls this first (package.json
// "prepack") and `--clean` after ("postpack"), so a checkout never holds a dist/ that could
// fall behind the source (a checkout compiles into a cache keyed by its sources instead:
// scripts/checkout-build.mjs). How the harness is compiled: scripts/compile-harness.mjs.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { compileInto } from "./compile-harness.mjs";

const ROOT = join(import.meta.dirname, "..");
const OUT = join(ROOT, "dist");

if (process.argv.includes("--clean")) await rm(OUT, { recursive: true, force: true });
else {
  const { compiled, copied } = await compileInto(ROOT, OUT, { replace: true });
  // On stderr: `npm pack --json` keeps stdout for its JSON.
  console.error(`dist/: ${compiled} modules compiled, ${copied} files copied`);
}
