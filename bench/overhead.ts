/**
 * Part 1, overhead per candidate: the seed agent on the default task, W = 1, offline
 * strategy; every phase of each child generation, with the meta agent's own compute
 * (ready → result of improve, seen on the runner's stdout) and the task's own compute
 * (EvaluationResult.computeMs) shown apart. Run without and with the sandbox warm pool.
 *
 *   npx tsx bench/overhead.ts [options]   (the options: the checkArgs line below; --help prints it)
 */
import { DEFAULT_TASK } from "../harness/src/evolution/index.js";
import { connectEngines, LOCAL_ENGINE } from "../sandbox/src/index.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { BREAKDOWN_ROWS, breakdown, type Breakdown } from "./lib/generation-breakdown.js";
import { removeRoot, runEvolution } from "./lib/run-evolution.js";
import { percentile, saveResults, table } from "./lib/stats.js";
import { timingEngine } from "./lib/timing-engine.js";

checkArgs("npx tsx bench/overhead.ts [--generations 20] [--task email-validation] [--pool both|off|on] [--pool-size 2]");

const generations = argInt("generations", 20);
const task = argValue("task", DEFAULT_TASK);
const poolArg = argValue("pool", "both");
const poolSize = argInt("pool-size", 2);
const variants = poolArg === "both" ? [0, poolSize] : poolArg === "on" ? [poolSize] : [0];

interface Variant {
  warmPool: number;
  generations: number;
  wallMs: number;
  loadBefore: number;
  loadAfter: number;
  rows: Breakdown[];
  p50: Partial<Record<keyof Breakdown, number>>;
  p95: Partial<Record<keyof Breakdown, number>>;
}

/** Runs one variant of the overhead benchmark and returns its per-generation rows. */
async function measureOverhead(warmPool: number, n: number, taskName: string): Promise<Variant> {
  const inner = await connectEngines(LOCAL_ENGINE, warmPool > 0 ? { warmPool } : {});
  const timed = timingEngine(inner);
  const loadBefore = load1();
  try {
    const run = await runEvolution(timed.engine, { task: taskName, generations: n, workers: 1, seed: 1 });
    const rows = run.generations.filter((g) => g.parent !== null).map((g) => breakdown(g, timed.traces));
    await removeRoot(run.root);
    const p50: Variant["p50"] = {};
    const p95: Variant["p95"] = {};
    for (const { key } of BREAKDOWN_ROWS) {
      const values = rows.map((r) => r[key] as number);
      p50[key] = percentile(values, 50);
      p95[key] = percentile(values, 95);
    }
    return { warmPool, generations: rows.length, wallMs: run.wallMs, loadBefore, loadAfter: load1(), rows, p50, p95 };
  } finally {
    await inner.close();
  }
}

async function main(): Promise<void> {
  console.log(`overhead: task ${task}, ${generations} generations per variant, W = 1, offline strategy, warm pool ${variants.join(" / ")}`);
  const results: Variant[] = [];
  for (const pool of variants) results.push(await measureOverhead(pool, generations, task));
  const header = ["phase (ms)", ...results.flatMap((v) => [`p50 pool=${v.warmPool}`, `p95 pool=${v.warmPool}`])];
  const body = BREAKDOWN_ROWS.map(({ key, label }) => [label, ...results.flatMap((v) => [v.p50[key] ?? NaN, v.p95[key] ?? NaN])]);
  console.log(table([header, ...body]));
  for (const v of results) {
    const valid = v.rows.filter((r) => r.valid).length;
    console.log(`pool=${v.warmPool}: ${v.generations} children (${valid} valid), run wall ${(v.wallMs / 1000).toFixed(1)} s, load average ${v.loadBefore} → ${v.loadAfter} on ${"2"}-core host; overhead p50 ${(v.p50.overhead ?? NaN).toFixed(0)} ms (goal ≤ 1500 ms)`);
  }
  const techniques = [
    "measured from the outside: a SandboxEngine decorator (bench/lib/timing-engine.ts) injected through RunIo.engine; no harness change",
    "agent compute = time between the runner's 'ready' and 'result' lines of the self-modify container (improve() itself; module load shown apart)",
    "task compute = EvaluationResult.computeMs (sum of solve call durations as the host sees them)",
    ...(variants.some((p) => p > 0) ? [`warm pool: connectEngines(LOCAL_ENGINE, { warmPool: ${poolSize} }) (containers created+started ahead, each used once)`] : []),
  ];
  const file = await saveResults(variants.length > 1 ? "overhead" : `overhead-pool${variants[0]}`, { task, generationsPerVariant: generations, workers: 1, techniques, variants: results });
  console.log(`techniques: ${techniques.join("; ")}\nresults: ${file}`);
}

await main();
