/**
 * The inspect bundle's code cache, seen from outside (bin/inspect-bundle.js): whether V8 takes
 * it in a node started with given flags, for the checkout's build and the installed package.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** The V8 flags on the first line of `root`/bin/evolve.js (`#!/usr/bin/env -S node FLAGS`). */
export async function binFlags(root: string): Promise<string[]> {
  const words = (await readFile(join(root, "bin/evolve.js"), "utf8")).split("\n", 1)[0]!.split(/\s+/);
  return words.slice(words.indexOf("node") + 1);
}

/** Whether V8 takes the code cache of the inspect bundle in `dir` (under evolve's `root`) in a node run with `flags`. */
export async function cacheTaken(root: string, dir: string, flags: string[]): Promise<boolean> {
  const probe = `
    import { readFileSync } from "node:fs";
    import { join } from "node:path";
    import { BUNDLE, CODE_CACHE, bundleName, compileBundle } from ${JSON.stringify(pathToFileURL(join(root, "bin/inspect-bundle.js")).href)};
    const [root, dir] = process.argv.slice(-2);
    const { script } = compileBundle(join(dir, BUNDLE), bundleName(root, dir), readFileSync(join(dir, CODE_CACHE)));
    console.log(script.cachedDataRejected ? "refused" : "taken");`;
  const { stdout } = await exec(process.execPath, [...flags, "--input-type=module", "-e", probe, root, dir], { timeout: 60_000 });
  return stdout.trim() === "taken";
}
