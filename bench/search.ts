/**
 * Part 4, search efficiency: the same offline strategy and the same number of children per
 * run, selection strategies compared on each built-in task over several seeds (the same
 * seeds for every strategy, so runs are paired). Per (task, strategy): best visible score
 * reached and the held-out score of that best-visible generation (what a user would ship),
 * mean ± sd over seeds, and the mean curve of best visible score against children.
 * Results are saved after every run, and a later invocation with the same settings skips
 * the runs already recorded (the grid takes hours, so it may span several sittings;
 * `--fresh` starts over). Every run uses the warm pool `evolve run` uses by default.
 *
 * Full settings (hours on a 2-core machine), results in bench/results/search.json:
 *   npx tsx bench/search.ts --generations 60 --seeds 5 --tasks circle-packing,email-validation,snake
 * Anything less is marked REDUCED and goes to bench/results/search-reduced.json.
 *
 * The offline meta strategies at equal container budget (`--containers N`): each run stops
 * once N containers have started through the harness, whatever for (self-modification,
 * checks, evaluations of children and of ctx.evaluate drafts), so a strategy that tests its
 * drafts pays for them in children. `--meta one-move,inner-loop` runs both (evaluations 0
 * and 3); results in bench/results/search-containers.json:
 *   npx tsx bench/search.ts --containers 300 --seeds 5 --strategies score_child_prop --meta one-move,inner-loop
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_WARM_POOL } from "../harness/src/evolution/index.js";
import { SelectionStrategyName } from "../harness/src/selection/index.js";
import { argFlag, argInt, argValue, checkArgs } from "./lib/args.js";
import { spawnRun } from "./lib/spawn-run.js";
import type { RunOnceResult } from "./lib/run-once.js";
import { BENCH_DIR, saveResults, table } from "./lib/stats.js";

checkArgs("npx tsx bench/search.ts [--generations 60] [--seeds 5] [--workers 2] [--tasks circle-packing,email-validation,snake] [--strategies score_child_prop,hyperagents,greedy,latest,random] [--meta inner-loop,one-move] [--containers N] [--name search|search-reduced|search-containers] [--fresh]");

/** The offline meta strategies: ctx.evaluate calls per generation (0: one untested move, as before issue 17). */
const METAS: Record<string, number> = { "one-move": 0, "inner-loop": 3 };
/** Records made before `meta` was recorded ran the one-move strategy. */
const metaOf = (r: { meta?: string }): string => r.meta ?? "one-move";

const FULL = { generations: 60, seeds: 5, tasks: ["circle-packing", "email-validation", "snake"], strategies: ["score_child_prop", "hyperagents", "greedy", "latest", "random"] };
/** Containers a run may start (0: no budget, the run makes `generations` children). */
const containerBudget = argInt("containers", 0);
// A budget, not a count of children, ends a budgeted run.
const generations = containerBudget > 0 ? 10_000 : argInt("generations", FULL.generations);
const metas = argValue("meta", "inner-loop").split(",");
for (const m of metas) if (METAS[m] === undefined) throw new Error(`--meta: unknown strategy ${m} (one-move, inner-loop)`);
const seeds = argInt("seeds", FULL.seeds);
const workers = argInt("workers", 2);
const tasks = argValue("tasks", FULL.tasks.join(",")).split(",");
const strategies = argValue("strategies", FULL.strategies.join(",")).split(",");
const reduced =
  containerBudget > 0
    ? seeds < FULL.seeds || FULL.tasks.some((t) => !tasks.includes(t)) || Object.keys(METAS).some((m) => !metas.includes(m))
    : generations < FULL.generations || seeds < FULL.seeds || FULL.tasks.some((t) => !tasks.includes(t)) || FULL.strategies.some((s) => !strategies.includes(s));
/** Results file name (bench/results/<name>.json); RESULTS.md reads "search", else "search-reduced". */
const resultName = argValue("name", containerBudget > 0 ? "search-containers" : reduced ? "search-reduced" : "search");
const fresh = argFlag("fresh");
const FULL_COMMAND =
  containerBudget > 0
    ? "npx tsx bench/search.ts --containers 300 --seeds 5 --tasks circle-packing,email-validation,snake --strategies score_child_prop --meta one-move,inner-loop"
    : "npx tsx bench/search.ts --generations 60 --seeds 5 --tasks circle-packing,email-validation,snake";

interface RunRow {
  task: string;
  strategy: string;
  /** The offline meta strategy (absent in older records: one-move). */
  meta?: string;
  containerBudget?: number;
  seed: number;
  result: RunOnceResult | null;
  error: string | null;
  /** Wall time of the whole run process (for estimating the cost of the full grid). */
  wallMs?: number;
  /** Settings of this run (older records lack them: the file's settings applied). */
  generations?: number;
  workers?: number;
  warmPool?: number;
  finishedAt?: string;
}

/** Runs recorded by an earlier invocation with these settings, to be kept and not re-run. */
async function previousRuns(): Promise<RunRow[]> {
  if (fresh) return [];
  let text: string;
  try {
    text = await readFile(join(BENCH_DIR, "results", `${resultName}.json`), "utf8");
  } catch {
    return [];
  }
  const saved = JSON.parse(text) as { results?: { settings?: { generations?: number; workers?: number }; runs?: RunRow[] } };
  const settings = saved.results?.settings ?? {};
  return (saved.results?.runs ?? []).filter(
    (r) =>
      r.result !== null &&
      (r.generations ?? settings.generations) === generations &&
      (r.workers ?? settings.workers) === workers &&
      tasks.includes(r.task) &&
      strategies.includes(r.strategy) &&
      metas.includes(metaOf(r)) &&
      (r.containerBudget ?? 0) === containerBudget &&
      r.seed >= 1 &&
      r.seed <= seeds,
  );
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]): number => (xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)));
const fmt = (xs: number[]): string => (xs.length === 0 ? "—" : `${mean(xs).toFixed(3)} ± ${sd(xs).toFixed(3)}`);

function aggregate(runs: RunRow[]) {
  const out = [];
  for (const task of tasks) {
    for (const strategy of strategies) for (const meta of metas) {
      const ok = runs.filter((r) => r.task === task && r.strategy === strategy && metaOf(r) === meta && r.result !== null).map((r) => r.result as RunOnceResult);
      if (ok.length === 0) continue;
      const visible = ok.map((r) => r.best?.visible ?? 0);
      const heldout = ok.map((r) => r.best?.heldout ?? 0);
      const length = Math.max(...ok.map((r) => r.bestVisibleCurve.length));
      const curve = Array.from({ length }, (_, i) => mean(ok.map((r) => r.bestVisibleCurve[Math.min(i, r.bestVisibleCurve.length - 1)] ?? 0)));
      const wall = runs.filter((r) => r.task === task && r.strategy === strategy && metaOf(r) === meta && r.result !== null).map((r) => r.wallMs ?? NaN);
      const perRun = (f: (r: RunOnceResult) => number | undefined): number => mean(ok.map((r) => f(r) ?? NaN));
      out.push({ task, strategy, meta, runs: ok.length, visible, heldout, children: perRun((r) => r.children), containers: perRun((r) => r.containers), evaluateContainers: perRun((r) => r.evaluateContainers), duplicates: perRun((r) => r.duplicates), wallMs: mean(wall), visibleMean: mean(visible), visibleSd: sd(visible), heldoutMean: mean(heldout), heldoutSd: sd(heldout), validShare: mean(ok.map((r) => r.valid / Math.max(1, r.children))), curve });
    }
  }
  return out;
}

async function save(runs: RunRow[], done: boolean): Promise<string> {
  return saveResults(resultName, {
    reduced,
    complete: done,
    settings: { generations, seeds, workers, warmPool: DEFAULT_WARM_POOL, tasks, strategies, metas, containerBudget },
    fullCommand: FULL_COMMAND,
    summary: aggregate(runs).map((a) => ({ ...a, visible: undefined, heldout: undefined })),
    runs,
  });
}

async function main(): Promise<void> {
  const label = reduced ? "REDUCED settings" : "full settings";
  const size = containerBudget > 0 ? `${containerBudget} containers a run` : `${generations} children`;
  console.log(`search efficiency (${label}): ${size}, seeds 1..${seeds}, W = ${workers}, tasks ${tasks.join(", ")}, strategies ${strategies.join(", ")}, meta ${metas.join(", ")}`);
  if (reduced) console.log(`full settings: ${FULL_COMMAND}`);
  const runs = await previousRuns();
  const total = seeds * tasks.length * strategies.length * metas.length;
  if (runs.length > 0) console.log(`continuing: ${runs.length} of ${total} runs already recorded in bench/results/${resultName}.json (--fresh to start over)`);
  // Seed-major, so a grid cut short still compares every strategy on the same seeds.
  for (let seed = 1; seed <= seeds; seed++) {
    for (const task of tasks) {
      for (const strategy of strategies) for (const meta of metas) {
        if (runs.some((r) => r.task === task && r.strategy === strategy && metaOf(r) === meta && r.seed === seed)) continue;
        const started = performance.now();
        const settings = { generations, workers, warmPool: DEFAULT_WARM_POOL, ...(containerBudget > 0 ? { containerBudget } : {}) };
        try {
          const result = await spawnRun({ task, selection: SelectionStrategyName.parse(strategy), seed, evaluations: METAS[meta] ?? 0, ...settings });
          runs.push({ task, strategy, meta, seed, result, error: null, wallMs: performance.now() - started, ...settings, finishedAt: new Date().toISOString() });
          console.log(`  ${task} ${strategy} ${meta} seed ${seed}: best visible ${result.best?.visible?.toFixed(3) ?? "—"}, its held-out ${result.best?.heldout?.toFixed(3) ?? "—"}, ${result.children} children, ${result.containers} containers (${((performance.now() - started) / 1000).toFixed(0)} s)`);
        } catch (error) {
          runs.push({ task, strategy, meta, seed, result: null, error: error instanceof Error ? error.message.slice(0, 500) : String(error), ...settings });
          console.log(`  ${task} ${strategy} ${meta} seed ${seed}: FAILED`);
        }
        await save(runs, false);
      }
    }
  }
  const agg = aggregate(runs);
  const checkpoints = [0, Math.round(generations / 4), Math.round(generations / 2), Math.round((3 * generations) / 4), generations];
  const name = (a: { strategy: string; meta: string }): string => (metas.length > 1 ? `${a.strategy} ${a.meta}` : a.strategy);
  if (containerBudget > 0) {
    console.log(table([
      ["task", "strategy", "meta", "runs", "best visible", "its held-out", "children", "containers", "of them ctx.evaluate", "duplicates", "valid %", "wall"],
      ...agg.map((a) => [a.task, a.strategy, a.meta, String(a.runs), fmt(a.visible), fmt(a.heldout), a.children.toFixed(1), a.containers.toFixed(0), a.evaluateContainers.toFixed(0), a.duplicates.toFixed(1), `${(100 * a.validShare).toFixed(0)}%`, `${(a.wallMs / 60_000).toFixed(1)} min`]),
    ]));
  } else {
    console.log(table([
      ["task", "strategy", "runs", "best visible", "its held-out", "valid %", ...checkpoints.map((c) => `@${c}`)],
      ...agg.map((a) => [a.task, name(a), String(a.runs), fmt(a.visible), fmt(a.heldout), `${(100 * a.validShare).toFixed(0)}%`, ...checkpoints.map((c) => (a.curve[Math.min(c, a.curve.length - 1)] ?? NaN).toFixed(3))]),
    ]));
  }
  for (const task of tasks) {
    const rows = agg.filter((a) => a.task === task).sort((a, b) => b.visibleMean - a.visibleMean);
    const [first, second] = rows;
    if (first === undefined) continue;
    const close = second !== undefined && first.visibleMean - second.visibleMean <= Math.max(first.visibleSd, second.visibleSd);
    const bestHeld = [...rows].sort((a, b) => b.heldoutMean - a.heldoutMean)[0];
    console.log(`${task}: highest mean best-visible ${name(first)}${close && second !== undefined ? ` (within one sd of ${name(second)}: not a clear win)` : ""}; highest held-out ${bestHeld === undefined ? "—" : name(bestHeld)}`);
  }
  const file = await save(runs, runs.filter((r) => r.result !== null).length === total);
  console.log(`${reduced ? "REDUCED settings; " : ""}results: ${file}`);
}

await main();
