/**
 * `npm run bench`: every part in turn, each in its own process, then bench/RESULTS.md.
 * The search benchmark runs at REDUCED settings unless `--full` is given (the full grid is
 * 5 strategies × 3 tasks × 5 seeds × 60 children: many hours on a 2-core machine).
 *
 *   npx tsx bench/run-all.ts [options]   (the options: the checkArgs line below; --help prints it)
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { argFlag, argValue, checkArgs } from "./lib/args.js";
import { BENCH_DIR } from "./lib/stats.js";

checkArgs("npx tsx bench/run-all.ts [--full] [--only overhead,sandbox-tax,throughput,search,archive-scale]");

const full = argFlag("full");
const parts: [string, string[]][] = [
  ["overhead", ["--generations", "20", "--pool", "both"]],
  ["sandbox-tax", []],
  ["throughput", ["--generations", "20"]],
  ["archive-scale", []],
  ["search", full ? [] : ["--generations", "12", "--seeds", "2", "--tasks", "email-validation"]],
];
const only = argValue("only", parts.map(([p]) => p).join(",")).split(",");

let failed = 0;
for (const [part, args] of parts) {
  if (!only.includes(part)) continue;
  console.log(`\n=== ${part} ${args.join(" ")}`);
  const r = spawnSync(process.execPath, ["--import", "tsx", join(BENCH_DIR, `${part}.ts`), ...args], { stdio: "inherit" });
  if (r.status !== 0) {
    failed += 1;
    console.log(`${part} failed (exit ${r.status})`);
  }
}
spawnSync(process.execPath, ["--import", "tsx", join(BENCH_DIR, "results-md.ts")], { stdio: "inherit" });
process.exitCode = failed > 0 ? 1 : 0;
