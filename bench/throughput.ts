/**
 * Part 3, throughput: children per minute with the offline strategy at W = 1, 2, 4 on this
 * machine (email-validation, seed 1), each W in its own harness process; scaling
 * efficiency = rate(W) / (W × rate(1)). Also the harness process's peak RSS per W
 * (part 5 asks for it at W = 2). The rate is measured between the seed's record and the
 * last child's, so start-up and the end-of-run report are not counted.
 *
 *   npx tsx bench/throughput.ts [options]   (the options: the checkArgs line below; --help prints it)
 */
import { DEFAULT_TASK } from "../harness/src/evolution/index.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { spawnRun } from "./lib/spawn-run.js";
import { saveResults, table } from "./lib/stats.js";

checkArgs("npx tsx bench/throughput.ts [--generations 20] [--workers 1,2,4] [--task email-validation]");

const generations = argInt("generations", 20);
const workers = argValue("workers", "1,2,4").split(",").map(Number);
const task = argValue("task", DEFAULT_TASK);

async function main(): Promise<void> {
  console.log(`throughput: task ${task}, ${generations} children per W, offline strategy, W = ${workers.join(", ")}`);
  const rows = [];
  for (const w of workers) {
    const loadBefore = load1();
    const r = await spawnRun({ task, generations, workers: w, seed: 1 });
    rows.push({ workers: w, loadBefore, loadAfter: load1(), ...r, bestVisibleCurve: undefined });
  }
  const base = rows.find((r) => r.workers === 1)?.perMinute ?? NaN;
  console.log(table([
    ["W", "children", "valid", "children/min", "efficiency vs W=1", "run wall s", "harness peak RSS MB", "load avg"],
    ...rows.map((r) => [String(r.workers), String(r.children), String(r.valid), r.perMinute, `${((100 * r.perMinute) / (r.workers * base)).toFixed(0)}%`, r.wallMs / 1000, r.maxRssMb, `${r.loadBefore}→${r.loadAfter}`]),
  ]));
  const file = await saveResults("throughput", { task, generations, rows: rows.map((r) => ({ ...r, efficiency: r.perMinute / (r.workers * base) })) });
  console.log(`results: ${file}`);
}

await main();
