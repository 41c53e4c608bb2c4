/**
 * The folder of evolve's own package.json: the checkout, or the installed package. The
 * harness runs from harness/src (TypeScript: the tests, tsx), from dist/harness/src (the
 * compiled copy the packed package runs, scripts/build-package.mjs) or from
 * .evolve-cache/harness/<key>/harness/src (the compiled copy a checkout's CLI runs,
 * scripts/checkout-build.mjs), so files that ship beside the code (seed-agent/, tasks/,
 * templates/, sandbox/runner/) are found from here rather than by counting `..` from a
 * module that may sit deeper.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

function findRoot(from: string): string {
  // The nearest folder up with a package.json: neither harness/ nor dist/ has one.
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`evolve's package.json not found above ${from}`);
  }
}

/** evolve's root folder (where its package.json, seed-agent/ and tasks/ are). */
export const PACKAGE_ROOT = findRoot(import.meta.dirname);

/**
 * The extension of the harness's own modules where this copy runs: ".ts" run as TypeScript,
 * ".js" compiled. For the few places that name a module by URL (loader hooks,
 * the task API a grader imports), so they load the same copy of it the harness loaded.
 */
export const MODULE_EXTENSION = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
