/**
 * How the benchmarks start a harness process: with the node flags of bin/evolve.js's shebang
 * (read from the file, so the two cannot drift apart) and tsx's ESM hooks, as the CLI does.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../..");

/** The V8/node flags on bin/evolve.js's `#!/usr/bin/env -S node ...` line. */
export function cliNodeFlags(): string[] {
  const shebang = readFileSync(resolve(REPO, "bin/evolve.js"), "utf8").split("\n")[0] ?? "";
  const words = shebang.replace(/^#!\S*env(?:\s+-S)?\s+/, "").split(/\s+/).filter((w) => w !== "");
  return words[0] === "node" ? words.slice(1) : [];
}

/** Command and arguments that run a TypeScript `script` the way the CLI runs the harness. */
export function harnessNode(script: string, ...args: string[]): [string, string[]] {
  return [process.execPath, [...cliNodeFlags(), "--import", "tsx/esm", script, ...args]];
}

/** Command and arguments for `evolve <args>` exactly as a user's shell runs bin/evolve.js. */
export function evolveCli(...args: string[]): [string, string[]] {
  return [process.execPath, [...cliNodeFlags(), resolve(REPO, "bin/evolve.js"), ...args]];
}
