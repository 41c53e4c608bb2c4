/**
 * Where the offline seed meta agent's CPU goes in its self-modification container (bench/cpu.ts
 * shows that container as the largest part of a child): loading TypeScript, which the search
 * parses with, and ts-morph, which only the type-check of edits loads (plain node: a `require`
 * against `node -e 0`, each in a fresh process), opening its tree as a knob search, and four
 * proposals, with and without the type-check of each edit (fresh processes,
 * bench/lib/seed-meta-steps.ts). Medians of --repeats runs. It measures and prints.
 *
 *   npx tsx bench/seed-meta-cpu.ts [--repeats 5]
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { argInt, checkArgs, load1 } from "./lib/args.js";
import { harnessNode } from "./lib/harness-node.js";
import { percentile, table } from "./lib/stats.js";

checkArgs("npx tsx bench/seed-meta-cpu.ts [--repeats 5]");
const repeats = argInt("repeats", 5);
const REPO = resolve(import.meta.dirname, "..");
const median = (xs: number[]): number => percentile(xs, 50);

/** CPU-seconds a fresh `node -e CODE` spends, by its own account at its end. */
function nodeCpu(code: string): number {
  const out = spawnSync(process.execPath, ["-e", `${code};const u=process.cpuUsage();console.log((u.user+u.system)/1e6)`], { cwd: REPO, encoding: "utf8" });
  if (out.status !== 0) throw new Error(`node -e failed: ${out.stderr}`);
  return Number(out.stdout.trim());
}

function steps(mode: "check" | "nocheck"): { open: number; propose4: number } {
  const [command, args] = harnessNode(resolve(REPO, "bench/lib/seed-meta-steps.ts"), mode);
  const out = spawnSync(command, args, { cwd: REPO, encoding: "utf8" });
  if (out.status !== 0) throw new Error(`seed-meta-steps failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop()!) as { open: number; propose4: number };
}

const loadBefore = load1();
const bare: number[] = [];
const withTypeScript: number[] = [];
const withTsMorph: number[] = [];
const check: { open: number; propose4: number }[] = [];
const nocheck: { open: number; propose4: number }[] = [];
for (let i = 0; i < repeats; i++) {
  bare.push(nodeCpu("0"));
  withTypeScript.push(nodeCpu('require("typescript")'));
  withTsMorph.push(nodeCpu('require("ts-morph")'));
  check.push(steps("check"));
  nocheck.push(steps("nocheck"));
}
const f = (x: number): string => x.toFixed(2);
console.log(`the offline seed meta agent over its own tree, cold, CPU-seconds (median of ${repeats}; load average ${loadBefore} → ${load1()}):`);
console.log(table([
  ["step", "CPU-s"],
  ["load TypeScript (fresh node, less `node -e 0`)", f(median(withTypeScript) - median(bare))],
  ["load ts-morph and its TypeScript, for the type-check only (same)", f(median(withTsMorph) - median(bare))],
  ["open the tree as a knob search (parse every file, find knobs)", f(median(nocheck.map((c) => c.open)))],
  ["the same with the type-check (ts-morph loaded, the tree in its project)", f(median(check.map((c) => c.open)))],
  ["four proposals, each edit type-checked", f(median(check.map((c) => c.propose4)))],
  ["four proposals, no type-check", f(median(nocheck.map((c) => c.propose4)))],
  ["`node -e 0` alone", f(median(bare))],
]));
