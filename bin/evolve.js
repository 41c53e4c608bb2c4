#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=20
// The `evolve` CLI. It runs the harness compiled to JavaScript, module for module: in the
// installed package the copy `npm pack` built into dist/ (scripts/build-package.mjs); in a
// checkout (a git work tree) a copy compiled from the sources as they are now, into
// .evolve-cache/harness/ (scripts/checkout-build.mjs: built again whenever a source
// changes, so it never runs code older than its source). Should that build fail, the checkout
// runs its TypeScript through tsx. The commands that only read the archive (and help) run from
// the copy's inspect bundle instead, one file with what they need, compiled with the code cache
// its build made (bin/inspect-bundle.js, scripts/compile-harness.mjs).
// The V8 flags above keep the harness's garbage small (a 4 MB young generation instead of
// up to 16 MB per semi-space, and an old generation that grows by 20 % instead of up to 4x):
// about 40 MB less peak RSS during a run for no measurable CPU (bench/RESULTS.md, part 5).
// `npm start` runs this file directly so they apply; `node bin/evolve.js` works without them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadInspectBundle } from "./inspect-bundle.js";

const root = new URL("../", import.meta.url);
const checkout = existsSync(new URL(".git", root));
const packaged = fileURLToPath(new URL("dist", root));
const argv = process.argv.slice(2);

/** The compiled copy's CLI for this command: the inspect bundle's when it serves the command. */
async function cliIn(dir) {
  const name = argv[0];
  const manifest = join(dir, "inspect/commands.json");
  const inspect = existsSync(manifest) && (name === undefined || name === "help" || name.startsWith("-") || JSON.parse(readFileSync(manifest, "utf8")).includes(name));
  // pathToFileURL, not "file://" + path: a checkout's path may hold spaces, "#" or "%".
  return inspect ? loadInspectBundle(fileURLToPath(root), dir) : await import(pathToFileURL(join(dir, "harness/src/cli/main.js")).href);
}

async function checkoutCli() {
  try {
    const { checkoutBuild } = await import(new URL("scripts/checkout-build.mjs", root).href);
    return await cliIn(await checkoutBuild(fileURLToPath(root).replace(/\/$/, "")));
  } catch (error) {
    process.stderr.write(`evolve: running the TypeScript through tsx (the compiled copy could not be built: ${error instanceof Error ? error.message : String(error)})\n`);
    const { register } = await import("tsx/esm/api");
    register();
    return await import("../harness/src/cli/main.ts");
  }
}

const installed = !checkout && existsSync(join(packaged, "harness/src/cli/main.js"));
const { runCli } = installed ? await cliIn(packaged) : await checkoutCli();
// Ends the process with the command's code, within a few seconds whatever is still open.
await runCli(argv);
