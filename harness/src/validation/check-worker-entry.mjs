// Entry of the check worker process. It runs the harness compiled to JavaScript: in the
// packed package the body is beside this file (dist/); in a checkout whose sources are
// TypeScript (the tests) it is the checkout's compiled copy of the same sources, the one the
// CLI runs (scripts/checkout-build.mjs, built again whenever a source changes). Through tsx
// a worker's start cost about a fifth more CPU. Should that copy not build, the body is
// loaded through tsx, which this process registers itself. TypeScript's compiler is loaded
// first, through its code cache (compiler-code-cache.ts), before the body imports ts-morph.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The folder of a compiled check-worker.js for this source, or null: then tsx runs the TypeScript. */
async function compiledFolder() {
  const here = fileURLToPath(new URL(".", import.meta.url));
  if (existsSync(join(here, "check-worker.js"))) return here;
  const root = join(here, "../../..");
  if (!existsSync(join(root, ".git")) || !existsSync(join(root, "scripts/checkout-build.mjs"))) return null;
  try {
    const { checkoutBuild } = await import(pathToFileURL(join(root, "scripts/checkout-build.mjs")).href);
    const folder = join(await checkoutBuild(root), "harness/src/validation");
    return existsSync(join(folder, "check-worker.js")) ? folder : null;
  } catch {
    return null;
  }
}

const compiled = await compiledFolder();
const body = (name) => pathToFileURL(compiled === null ? fileURLToPath(new URL(`./${name}.ts`, import.meta.url)) : join(compiled, `${name}.js`)).href;
if (compiled === null) {
  const { register } = await import("tsx/esm/api");
  register();
}
const { preloadCompiler } = await import(body("compiler-code-cache"));
preloadCompiler();
await import(body("check-worker"));
