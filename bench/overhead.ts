/**
 * Part 1, overhead per candidate: the seed agent on the default task, W = 1, offline
 * strategy; every phase of each child generation, with the meta agent's own compute
 * (ready → result of improve, seen on the runner's stdout, less the host's time on its
 * ctx.evaluate drafts, which is harness work) and the task's own compute
 * (EvaluationResult.computeMs) shown apart. Valid children (every phase) and stopped ones
 * (an empty diff at the policy gate, a failed check) are reported apart: their costs differ
 * by an order of magnitude. Run without and with the sandbox warm pool.
 *
 *   npx tsx bench/overhead.ts [options]   (the options: the checkArgs line below; --help prints it)
 */
import { readEvents } from "../harness/src/archive/index.js";
import { DEFAULT_TASK } from "../harness/src/evolution/index.js";
import { connectEngines, LOCAL_ENGINE } from "../sandbox/src/index.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { BREAKDOWN_ROWS, breakdown, type Breakdown } from "./lib/generation-breakdown.js";
import { removeRoot, runEvolution } from "./lib/run-evolution.js";
import { cell, percentile, saveResults, table } from "./lib/stats.js";
import { timingEngine } from "./lib/timing-engine.js";

checkArgs("npx tsx bench/overhead.ts [--generations 20] [--task email-validation] [--pool both|off|on] [--pool-size 2]");

const generations = argInt("generations", 20);
const task = argValue("task", DEFAULT_TASK);
const poolArg = argValue("pool", "both");
const poolSize = argInt("pool-size", 2);
const variants = poolArg === "both" ? [0, poolSize] : poolArg === "on" ? [poolSize] : [0];

type Figures = Partial<Record<keyof Breakdown, number>>;

/** Percentiles over one group of children (all, valid, stopped). */
interface Group {
  n: number;
  p50: Figures;
  p95: Figures;
}

interface Variant extends Group {
  warmPool: number;
  generations: number;
  wallMs: number;
  loadBefore: number;
  loadAfter: number;
  rows: Breakdown[];
  valid: Group;
  stopped: Group;
}

function group(rows: readonly Breakdown[]): Group {
  const p50: Figures = {};
  const p95: Figures = {};
  for (const { key } of BREAKDOWN_ROWS) {
    const values = rows.map((r) => r[key] as number);
    p50[key] = percentile(values, 50);
    p95[key] = percentile(values, 95);
  }
  return { n: rows.length, p50, p95 };
}

/** Runs one variant of the overhead benchmark and returns its per-generation rows. */
async function measureOverhead(warmPool: number, n: number, taskName: string): Promise<Variant> {
  const inner = await connectEngines(LOCAL_ENGINE, warmPool > 0 ? { warmPool } : {});
  const timed = timingEngine(inner);
  const loadBefore = load1();
  try {
    const run = await runEvolution(timed.engine, { task: taskName, generations: n, workers: 1, seed: 1 });
    const recordedAt = new Map((await readEvents(run.runDir)).events.flatMap((e) => (e.type === "recorded" ? [[e.generation, Date.parse(e.at)] as const] : [])));
    // W = 1: each child's predecessor in id order is the record the loop finished before selecting it.
    const ids = run.generations.map((g) => g.id);
    const previous = (id: string): number | null => recordedAt.get(ids[ids.indexOf(id) - 1] ?? "") ?? null;
    const rows = run.generations.filter((g) => g.parent !== null).map((g) => breakdown(g, timed.traces, recordedAt.get(g.id) ?? null, previous(g.id)));
    await removeRoot(run.root);
    const all = group(rows);
    return { warmPool, generations: rows.length, wallMs: run.wallMs, loadBefore, loadAfter: load1(), rows, ...all, valid: group(rows.filter((r) => r.valid)), stopped: group(rows.filter((r) => !r.valid)) };
  } finally {
    await inner.close();
  }
}

const ms = (value: number | undefined): string => (value === undefined || Number.isNaN(value) ? "— (none)" : `${value.toFixed(0)} ms`);

async function main(): Promise<void> {
  console.log(`overhead: task ${task}, ${generations} generations per variant, W = 1, offline strategy, warm pool ${variants.join(" / ")}`);
  const results: Variant[] = [];
  for (const pool of variants) results.push(await measureOverhead(pool, generations, task));
  const header = ["phase (ms)", ...results.flatMap((v) => [`valid p50 pool=${v.warmPool}`, `valid p95 pool=${v.warmPool}`, `stopped p50 pool=${v.warmPool}`])];
  const body = BREAKDOWN_ROWS.map(({ key, label }) => [label, ...results.flatMap((v) => [cell(v.valid.p50[key]), cell(v.valid.p95[key]), cell(v.stopped.p50[key])])]);
  console.log(table([header, ...body]));
  for (const v of results) {
    console.log(
      `pool=${v.warmPool}: ${v.generations} children (${v.valid.n} valid, ${v.stopped.n} stopped), run wall ${(v.wallMs / 1000).toFixed(1)} s, load average ${v.loadBefore} → ${v.loadAfter}; ` +
        `overhead p50 over valid children ${ms(v.valid.p50.overhead)} (goal ≤ 500 ms with the pool), over stopped ones ${ms(v.stopped.p50.overhead)}`,
    );
  }
  const techniques = [
    "measured from the outside: a SandboxEngine decorator (bench/lib/timing-engine.ts) injected through RunIo.engine; no harness change",
    "agent compute = time between the runner's 'ready' and 'result' lines of the self-modify container (improve() itself; module load shown apart), less the host's time answering its ctx.evaluate drafts (their checks and containers: harness overhead)",
    "valid children (every phase) and stopped ones (a failed gate, an empty diff) apart",
    "task compute = EvaluationResult.computeMs (sum of solve call durations as the host sees them)",
    "the record folder's write (after the record's timings.total) = its `recorded` event's time − the record's createdAt − its preparation; the loop's work before a child (selection, run.json, the selected event) = the child's start (createdAt − timings.total) − the last record's `recorded` event; both counted in the total",
    ...(variants.some((p) => p > 0) ? [`warm pool: connectEngines(LOCAL_ENGINE, { warmPool: ${poolSize} }) (containers created+started ahead, each used once)`] : []),
  ];
  const file = await saveResults(variants.length > 1 ? "overhead" : `overhead-pool${variants[0]}`, { task, generationsPerVariant: generations, workers: 1, techniques, variants: results });
  console.log(`techniques: ${techniques.join("; ")}\nresults: ${file}`);
}

await main();
