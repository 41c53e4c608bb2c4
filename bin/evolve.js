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
//
// CommonJS (bin/package.json): an inspect command then starts without Node's ES module
// loader, and without the module facades it builds for node:fs and the rest, which cost
// `evolve ls` about 5 % (farm-bench, 2026-11-27). The harness itself stays ES modules.
"use strict";
const { existsSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");
const { loadInspectBundle } = require("./inspect-bundle.js");

const root = join(__dirname, "..");
const checkout = existsSync(join(root, ".git"));
const packaged = join(root, "dist");
const argv = process.argv.slice(2);

/** `import()` of a file by its path: pathToFileURL, as a checkout's path may hold spaces, "#" or "%". */
const importFile = (path) => import(pathToFileURL(path).href);

/** The compiled copy's CLI for this command: the inspect bundle's when it serves the command. */
async function cliIn(dir) {
  const name = argv[0];
  const manifest = join(dir, "inspect/commands.json");
  const inspect = existsSync(manifest) && (name === undefined || name === "help" || name.startsWith("-") || JSON.parse(readFileSync(manifest, "utf8")).includes(name));
  return inspect ? loadInspectBundle(root, dir) : await importFile(join(dir, "harness/src/cli/main.js"));
}

async function checkoutCli() {
  try {
    const { checkoutBuild } = await importFile(join(root, "scripts/checkout-build.mjs"));
    return await cliIn(await checkoutBuild(root));
  } catch (error) {
    process.stderr.write(`evolve: running the TypeScript through tsx (the compiled copy could not be built: ${error instanceof Error ? error.message : String(error)})\n`);
    const { register } = await import("tsx/esm/api");
    register();
    return await importFile(join(root, "harness/src/cli/main.ts"));
  }
}

async function start() {
  const installed = !checkout && existsSync(join(packaged, "harness/src/cli/main.js"));
  const { runCli } = installed ? await cliIn(packaged) : await checkoutCli();
  // Ends the process with the command's code, within a few seconds whatever is still open.
  await runCli(argv);
}

// A failure start() does not put in words ends the process as an uncaught error: its stack, exit 1.
start();
