// What `evolve` runs in a checkout: the harness compiled to JavaScript the way the packed
// package is (scripts/compile-harness.mjs), into .evolve-cache/harness/<key>/ of the checkout.
// That folder is ignored by git, and inside the checkout so the compiled code finds the
// checkout's package.json, seed-agent/ and tasks/ above it even when node_modules is a link.
// The key is a hash of every source file's path and text, and of the compiler and this
// script: a changed source gives a new key and a new build at the next command, so a checkout
// never runs code older than its source; an unchanged one reuses the build. Running the
// TypeScript through tsx instead cost each command about 2.4 times the CPU (`evolve run
// --generations -1`: 1.2 s against 0.5 s, farm-bench, 2026-11-26), paid by every command
// people type and every CLI process the tests start.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { readdir, rm, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { compileInto, INSPECT_BUILD_FILES, plan } from "./compile-harness.mjs";

/**
 * A build no command has started from for this long is removed when another is made (each
 * is about 2 MB, one per edit that a command followed). Not sooner: a run started from an
 * older build still imports modules from it as it goes.
 */
const UNUSED_MS = 24 * 3600_000;

/** The key of `root`'s sources as they are now, and the files it was computed from. */
async function sourceKey(root) {
  const files = await plan(root);
  const { compile, copy } = files;
  const hash = createHash("sha256");
  hash.update(`${process.version}\0${readFileSync(join(root, "node_modules/esbuild/package.json"), "utf8")}\0`);
  for (const path of ["scripts/compile-harness.mjs", "scripts/checkout-build.mjs", ...INSPECT_BUILD_FILES, ...compile, ...copy]) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(root, path)));
    hash.update("\0");
  }
  return { key: hash.digest("hex").slice(0, 16), files };
}

/** The folder of the compiled harness for `root`'s sources, built first if it is not there. */
export async function checkoutBuild(root) {
  const cache = join(root, ".evolve-cache/harness");
  const { key, files } = await sourceKey(root);
  const dir = join(cache, key);
  if (existsSync(join(dir, "harness/src/cli/main.js"))) {
    const now = new Date();
    await utimes(dir, now, now).catch(() => undefined);
    return dir;
  }
  await compileInto(root, dir, { replace: false, files });
  await removeStale(cache);
  return dir;
}

async function removeStale(cache) {
  for (const name of await readdir(cache)) {
    const path = join(cache, name);
    const age = Date.now() - (await stat(path).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age > UNUSED_MS) await rm(path, { recursive: true, force: true });
  }
}
