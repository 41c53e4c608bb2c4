/**
 * Part 4, search efficiency: the same offline strategy and the same number of children per
 * run, selection strategies compared on each built-in task over several seeds (the same
 * seeds for every strategy, so runs are paired). Per (task, strategy): best visible score
 * reached and the held-out score of that best-visible generation (what a user would ship),
 * mean ± sd over seeds, and the mean curve of best visible score against children.
 * Results are saved after every run, so a cut-short run keeps what it measured.
 *
 * Full settings (hours on a 2-core machine):
 *   npx tsx bench/search.ts --generations 60 --seeds 5 --tasks circle-packing,email-validation,snake
 * Anything less is marked REDUCED in the output and in bench/results/search.json.
 */
import { argInt, argValue } from "./lib/args.js";
import { spawnRun } from "./lib/spawn-run.js";
import type { RunOnceResult } from "./lib/run-once.js";
import { saveResults, table } from "./lib/stats.js";

const FULL = { generations: 60, seeds: 5, tasks: ["circle-packing", "email-validation", "snake"], strategies: ["score_child_prop", "hyperagents", "greedy", "latest", "random"] };
const generations = argInt("generations", FULL.generations);
const seeds = argInt("seeds", FULL.seeds);
const workers = argInt("workers", 2);
const tasks = argValue("tasks", FULL.tasks.join(",")).split(",");
const strategies = argValue("strategies", FULL.strategies.join(",")).split(",");
const reduced = generations < FULL.generations || seeds < FULL.seeds || FULL.tasks.some((t) => !tasks.includes(t)) || FULL.strategies.some((s) => !strategies.includes(s));
/** Results file name (bench/results/<name>.json); RESULTS.md reads "search". */
const resultName = argValue("name", "search");
const FULL_COMMAND = "npx tsx bench/search.ts --generations 60 --seeds 5 --tasks circle-packing,email-validation,snake";

interface RunRow {
  task: string;
  strategy: string;
  seed: number;
  result: RunOnceResult | null;
  error: string | null;
  /** Wall time of the whole run process (for estimating the cost of the full grid). */
  wallMs?: number;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]): number => (xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)));
const fmt = (xs: number[]): string => (xs.length === 0 ? "—" : `${mean(xs).toFixed(3)} ± ${sd(xs).toFixed(3)}`);

function aggregate(runs: RunRow[]) {
  const out = [];
  for (const task of tasks) {
    for (const strategy of strategies) {
      const ok = runs.filter((r) => r.task === task && r.strategy === strategy && r.result !== null).map((r) => r.result as RunOnceResult);
      if (ok.length === 0) continue;
      const visible = ok.map((r) => r.best?.visible ?? 0);
      const heldout = ok.map((r) => r.best?.heldout ?? 0);
      const length = Math.max(...ok.map((r) => r.bestVisibleCurve.length));
      const curve = Array.from({ length }, (_, i) => mean(ok.map((r) => r.bestVisibleCurve[Math.min(i, r.bestVisibleCurve.length - 1)] ?? 0)));
      out.push({ task, strategy, runs: ok.length, visible, heldout, visibleMean: mean(visible), visibleSd: sd(visible), heldoutMean: mean(heldout), heldoutSd: sd(heldout), validShare: mean(ok.map((r) => r.valid / Math.max(1, r.children))), curve });
    }
  }
  return out;
}

async function save(runs: RunRow[], done: boolean): Promise<string> {
  return saveResults(resultName, {
    reduced,
    complete: done,
    settings: { generations, seeds, workers, tasks, strategies },
    fullCommand: FULL_COMMAND,
    summary: aggregate(runs).map((a) => ({ ...a, visible: undefined, heldout: undefined })),
    runs,
  });
}

async function main(): Promise<void> {
  const label = reduced ? "REDUCED settings" : "full settings";
  console.log(`search efficiency (${label}): ${generations} children, seeds 1..${seeds}, W = ${workers}, tasks ${tasks.join(", ")}, strategies ${strategies.join(", ")}`);
  if (reduced) console.log(`full settings: ${FULL_COMMAND}`);
  const runs: RunRow[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    for (const task of tasks) {
      for (const strategy of strategies) {
        const started = performance.now();
        try {
          const result = await spawnRun({ task, generations, workers, selection: strategy, seed });
          runs.push({ task, strategy, seed, result, error: null, wallMs: performance.now() - started });
          console.log(`  ${task} ${strategy} seed ${seed}: best visible ${result.best?.visible?.toFixed(3) ?? "—"}, its held-out ${result.best?.heldout?.toFixed(3) ?? "—"} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
        } catch (error) {
          runs.push({ task, strategy, seed, result: null, error: error instanceof Error ? error.message.slice(0, 500) : String(error) });
          console.log(`  ${task} ${strategy} seed ${seed}: FAILED`);
        }
        await save(runs, false);
      }
    }
  }
  const agg = aggregate(runs);
  const checkpoints = [0, Math.round(generations / 4), Math.round(generations / 2), Math.round((3 * generations) / 4), generations];
  console.log(table([
    ["task", "strategy", "runs", "best visible", "its held-out", "valid %", ...checkpoints.map((c) => `@${c}`)],
    ...agg.map((a) => [a.task, a.strategy, String(a.runs), fmt(a.visible), fmt(a.heldout), `${(100 * a.validShare).toFixed(0)}%`, ...checkpoints.map((c) => (a.curve[Math.min(c, a.curve.length - 1)] ?? NaN).toFixed(3))]),
  ]));
  for (const task of tasks) {
    const rows = agg.filter((a) => a.task === task).sort((a, b) => b.visibleMean - a.visibleMean);
    const [first, second] = rows;
    if (first === undefined) continue;
    const close = second !== undefined && first.visibleMean - second.visibleMean <= Math.max(first.visibleSd, second.visibleSd);
    const bestHeld = [...rows].sort((a, b) => b.heldoutMean - a.heldoutMean)[0];
    console.log(`${task}: highest mean best-visible ${first.strategy}${close ? ` (within one sd of ${second?.strategy}: not a clear win)` : ""}; highest held-out ${bestHeld?.strategy}`);
  }
  const file = await save(runs, true);
  console.log(`${reduced ? "REDUCED settings; " : ""}results: ${file}`);
}

await main();
