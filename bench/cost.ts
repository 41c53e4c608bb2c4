/**
 * Issue 28's evidence: what each configuration spends to reach a held-out score, and what it
 * ends with at equal spending. Per task and seed (paired: every configuration runs the same
 * seeds), today's default (score_child_prop, no attempts, staged evaluation, no barren
 * discount) makes `--children` children first; the held-out score of its best at the end is
 * the target, its containers the budget to compare at. Every other configuration then runs
 * until it has both reached the target and spent that budget, or spent `--cap` times it.
 * Reported per configuration: containers and CPU-seconds (harness process tree plus its own
 * containers' cgroup CPU) when its best first had a held-out score at or above the target
 * (unreached within the cap: counted at the cap, and said), and the held-out of its best at
 * today's container count. Offline strategy, the warm pool `evolve run` uses.
 *
 * Full settings (about an hour on 2 idle cores; results in bench/results/cost.json):
 *   npm run bench:cost
 * A quick check (bench/results/cost-reduced.json):
 *   npm run bench:cost -- --tasks email-validation --seeds 1 --children 6 --configs today,default --ablations none
 * Results are saved after every run; the same command later skips what is recorded (--fresh starts over).
 * Each row keeps the commit it ran at, and the summary warns when a task's rows span several:
 * a recorded row is reused whatever code made it, so its ratios would compare code too.
 *
 * `--configs today,default,today-again` adds the control: today's settings run again and
 * measured like the others. Today's own run reaches its target within its budget by
 * construction (the target is its end), so today ÷ today-again is the method's own figure for a
 * configuration no better than today's, and today-again ÷ default compares two runs that faced
 * the same target the same way.
 *
 * `--repeats R` runs every configuration but today's R times per seed, on the same seed and
 * target: at W = 2 the order in which children finish differs from run to run, and one run of a
 * seed can reach the target at a fifth of the containers another needs. A seed's figure is then
 * the mean over its runs (an unreached run counted at the cap), and the summary lists each
 * seed's runs.
 */
import { execFileSync } from "node:child_process";
import { DEFAULT_SELECTION_STRATEGY } from "../harness/src/selection/index.js";
import { DEFAULT_ATTEMPTS, RunOptions } from "../harness/src/evolution/index.js";
import { argFlag, argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import type { CostRunResult, CostStep } from "./lib/cost-run.js";
import { containersToTarget, readCostRows, type CostConfig, type CostRow } from "./lib/cost-rows.js";
import { formatPairedRatio, pairedRatio } from "./lib/paired-ratio.js";
import { spawnScript } from "./lib/spawn-run.js";
import { BENCH_DIR, saveResults, table } from "./lib/stats.js";

checkArgs("npx tsx bench/cost.ts [--tasks email-validation,snake,circle-packing] [--seeds 5] [--children 24] [--cap 3] [--workers 2] [--configs today,greedy,default] [--ablations attempts,cmp,racing] [--ablation-tasks email-validation] [--name cost] [--repeats 1] [--redo default] [--fresh]");

const TODAY: CostConfig = { selection: "score_child_prop", attempts: 0, racing: false, discountBarren: false };
const defaults = RunOptions.parse({});
const DEFAULT: CostConfig = { selection: defaults.selection, attempts: defaults.attempts, racing: defaults.racing, discountBarren: defaults.discountBarren };
/** The configurations by name; "default" is whatever `evolve run` does now. */
const CONFIGS: Record<string, CostConfig> = {
  today: TODAY,
  // The control: today's default again, measured like every other configuration against the
  // target today's own run set. That run's end is its own target, so it reaches it within its
  // budget by construction; a second run of the same settings (another order of finishing at
  // W = 2) shows what the method gives a configuration no better than today's.
  "today-again": TODAY,
  greedy: { ...TODAY, selection: "greedy" },
  default: DEFAULT,
  "all-cmp": { selection: "cmp", attempts: DEFAULT_ATTEMPTS, racing: true, discountBarren: true },
  "all-scp": { selection: "score_child_prop", attempts: DEFAULT_ATTEMPTS, racing: true, discountBarren: true },
  "all-hyp": { selection: "hyperagents", attempts: DEFAULT_ATTEMPTS, racing: true, discountBarren: true },
  attempts: { ...TODAY, attempts: DEFAULT_ATTEMPTS },
  cmp: { ...TODAY, selection: "cmp" },
  racing: { ...TODAY, racing: true },
  discount: { ...TODAY, discountBarren: true },
  // The new default less one part: which part costs it where it runs behind today's (circle-packing).
  "no-discount": { ...DEFAULT, discountBarren: false },
  "no-attempts": { ...DEFAULT, attempts: 0 },
  "no-racing": { ...DEFAULT, racing: false },
  // The new default with fewer drafts a child (a draft is a container). Tried on 2026-12-02 and
  // not kept: the containers a child saves come back as more children (bench/HISTORY.md).
  "default-e2": { ...DEFAULT, evaluations: 2 },
  "default-e1": { ...DEFAULT, evaluations: 1 },
};

const FULL = { tasks: ["email-validation", "snake", "circle-packing"], seeds: 5, children: 24, cap: 3, configs: ["today", "greedy", "default"], ablations: ["attempts", "cmp", "racing"], ablationTasks: ["email-validation"] };
const tasks = argValue("tasks", FULL.tasks.join(",")).split(",");
const seeds = argInt("seeds", FULL.seeds);
const children = argInt("children", FULL.children);
const cap = argInt("cap", FULL.cap);
const workers = argInt("workers", 2);
const repeats = argInt("repeats", 1);
if (repeats < 1) throw new Error("--repeats must be at least 1 (the runs of each seed, today's run aside)");
const configs = [...new Set(["today", ...argValue("configs", FULL.configs.join(",")).split(",")])];
const ablationArg = argValue("ablations", FULL.ablations.join(","));
const ablations = ablationArg === "none" ? [] : ablationArg.split(",");
const ablationTasks = argValue("ablation-tasks", FULL.ablationTasks.join(",")).split(",");
for (const c of [...configs, ...ablations]) if (CONFIGS[c] === undefined) throw new Error(`unknown configuration ${c} (${Object.keys(CONFIGS).join(", ")})`);
const reduced = seeds < FULL.seeds || children !== FULL.children || cap !== FULL.cap || FULL.tasks.some((t) => !tasks.includes(t)) || FULL.configs.some((c) => !configs.includes(c)) || FULL.ablations.some((a) => !ablations.includes(a));
const resultName = argValue("name", reduced ? "cost-reduced" : "cost");
const FULL_COMMAND = "npm run bench:cost";
const CHECK_TIMEOUT_MS = 120_000;

/** The first step at which the best's held-out reached `target`. */
function reachOf(steps: readonly CostStep[], target: number | null): CostStep | null {
  if (target === null) return null;
  return steps.find((s) => (s.best?.heldout ?? -1) >= target - 1e-9) ?? null;
}

/** The best's held-out after the last generation recorded within `containers`. */
function heldoutAt(steps: readonly CostStep[], containers: number): number | null {
  return steps.filter((s) => s.containers <= containers).at(-1)?.best?.heldout ?? null;
}

/** The commit the runs are made at (null outside a git checkout): rows of several commits compare code as well as settings. */
function currentCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: BENCH_DIR, encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}
const COMMIT = currentCommit();

/** Configurations whose recorded runs are run again (their code changed; today's target stays). */
const redo = argValue("redo", "").split(",").filter((c) => c !== "");

async function previousRows(): Promise<CostRow[]> {
  if (argFlag("fresh")) return [];
  try {
    return (await readCostRows(resultName)).filter((r) => r.error === null && !redo.includes(r.config) && r.settings.children === children && r.settings.cap === cap && r.settings.workers === workers && JSON.stringify({ ...r.settings, children: 0, cap: 0, workers: 0 }) === JSON.stringify({ ...CONFIGS[r.config], children: 0, cap: 0, workers: 0 }));
  } catch {
    return [];
  }
}

async function runConfig(task: string, seed: number, config: string, target: CostRow["target"] | null): Promise<{ row: CostRow; result: CostRunResult | null }> {
  const c = CONFIGS[config] as CostConfig;
  const settings = { ...c, children, cap, workers };
  // A generous check clock for every configuration alike: on a loaded machine the default 30 s can
  // time out the seed's own checks, and a child failing them for the machine's sake is no evidence.
  const base = { task, seed, workers, selection: c.selection, attempts: c.attempts, racing: c.racing, discountBarren: c.discountBarren, ...(c.evaluations === undefined ? {} : { evaluations: c.evaluations }), checkTimeoutMs: CHECK_TIMEOUT_MS };
  const options = target === null ? { ...base, generations: children } : { ...base, generations: 100_000, containerBudget: cap * target.containers, ...(target.heldout === null ? {} : { stopWhen: { heldout: target.heldout, containers: target.containers } }) };
  try {
    const result = await spawnScript<CostRunResult>("cost-run.ts", options);
    const { steps, ...run } = result;
    const end = steps.at(-1);
    const own = target ?? { heldout: end?.best?.heldout ?? null, containers: end?.containers ?? result.containers };
    const reached = reachOf(steps, own.heldout);
    return { row: { task, config, seed, settings, target: own, reach: reached === null ? null : { containers: reached.containers, cpuSeconds: reached.cpuSeconds }, heldoutAtEqual: heldoutAt(steps, own.containers), run, error: null, finishedAt: new Date().toISOString(), commit: COMMIT }, result };
  } catch (error) {
    const message = error instanceof Error ? error.message.slice(0, 800) : String(error);
    return { row: { task, config, seed, settings, target: target ?? { heldout: null, containers: 0 }, reach: null, heldoutAtEqual: null, run: null, error: message, finishedAt: new Date().toISOString(), commit: COMMIT }, result: null };
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const repeatOf = (r: CostRow): number => r.repeat ?? 1;
const sd = (xs: readonly number[]): number => (xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)));
const fmt = (xs: readonly number[], digits = 3): string => (xs.length === 0 ? "—" : `${mean(xs).toFixed(digits)} ± ${sd(xs).toFixed(digits)}`);

/** One summary line per task and configuration; unreached runs count at the cap. */
function summarise(rows: readonly CostRow[]) {
  const out = [];
  for (const task of tasks) {
    for (const config of [...configs, ...ablations]) {
      const mine = rows.filter((r) => r.task === task && r.config === config && r.error === null);
      if (mine.length === 0) continue;
      const today = (seed: number): CostRow | undefined => rows.find((r) => r.task === task && r.config === "today" && r.seed === seed && r.error === null);
      const containers = mine.map(containersToTarget);
      // One pair per seed: today's run against the mean of this configuration's runs of it.
      const seedsRun = [...new Set(mine.map((r) => r.seed))].sort((a, b) => a - b);
      const perSeed = seedsRun.map((seed) => ({ seed, runs: mine.filter((r) => r.seed === seed).map(containersToTarget) }));
      const pairs = perSeed.flatMap(({ seed, runs }) => {
        const t = today(seed);
        return t === undefined ? [] : [{ base: containersToTarget(t), it: mean(runs) }];
      });
      const ratios = pairs.map((p) => p.base / p.it);
      const cpu = mine.flatMap((r) => (r.reach?.cpuSeconds == null ? [] : [r.reach.cpuSeconds]));
      const held = mine.flatMap((r) => (r.heldoutAtEqual === null ? [] : [r.heldoutAtEqual]));
      const runs = mine.flatMap((r) => (r.run === null ? [] : [r.run]));
      const empty = runs.reduce((n, r) => n + r.emptyDiffs, 0) / Math.max(1, runs.reduce((n, r) => n + r.children, 0));
      const paired = pairs.length === 0 ? null : pairedRatio(pairs);
      out.push({ task, config, runs: mine.length, reached: mine.filter((r) => r.reach !== null).length, containers, perSeed, ratios, paired, cpu, held, target: mine.map((r) => r.target.heldout ?? NaN), emptyShare: empty, load: runs.map((r) => r.load[1]) });
    }
  }
  return out;
}

/** Each configuration against the control (today-again) of its task: the mean of each seed's runs on both sides. */
function controlRatios(summary: ReturnType<typeof summarise>) {
  return summary.flatMap((s) => {
    const control = summary.find((c) => c.task === s.task && c.config === "today-again");
    if (control === undefined || s.config === "today" || s.config === "today-again") return [];
    const pairs = s.perSeed.flatMap(({ seed, runs }) => {
      const base = control.perSeed.find((p) => p.seed === seed)?.runs;
      return base === undefined ? [] : [{ base: mean(base), it: mean(runs) }];
    });
    return pairs.length === 0 ? [] : [{ task: s.task, config: s.config, paired: pairedRatio(pairs) }];
  });
}

async function save(rows: CostRow[], done: boolean): Promise<string> {
  const summary = summarise(rows);
  return saveResults(resultName, {
    reduced,
    complete: done,
    settings: { tasks, seeds, children, cap, workers, repeats, configs, ablations, ablationTasks, definitions: CONFIGS, defaultSelection: DEFAULT_SELECTION_STRATEGY },
    fullCommand: FULL_COMMAND,
    summary,
    control: controlRatios(summary),
    rows,
  });
}

async function main(): Promise<void> {
  console.log(`cost to a held-out score (${reduced ? "REDUCED settings" : "full settings"}): tasks ${tasks.join(", ")}, seeds 1..${seeds}, today's default with ${children} children sets the target, cap ${cap}×, W = ${workers}; configurations ${configs.join(", ")}; ablations ${ablations.join(", ") || "none"} on ${ablationTasks.join(", ")}; load ${load1()}`);
  if (reduced) console.log(`full settings: ${FULL_COMMAND}`);
  const rows = await previousRows();
  if (rows.length > 0) console.log(`continuing: ${rows.length} runs already recorded in bench/results/${resultName}.json (--fresh to start over)`);
  for (let seed = 1; seed <= seeds; seed++) {
    for (const task of tasks) {
      const wanted = ["today", ...configs.filter((c) => c !== "today"), ...(ablationTasks.includes(task) ? ablations : [])];
      for (const [config, repeat] of wanted.flatMap((c) => Array.from({ length: c === "today" ? 1 : repeats }, (_, i) => [c, i + 1] as const))) {
        if (rows.some((r) => r.task === task && r.config === config && r.seed === seed && repeatOf(r) === repeat)) continue;
        const today = rows.find((r) => r.task === task && r.config === "today" && r.seed === seed);
        if (config !== "today" && today === undefined) continue;
        const started = performance.now();
        const { row } = await runConfig(task, seed, config, config === "today" ? null : (today?.target ?? null));
        if (repeat > 1) row.repeat = repeat;
        rows.push(row);
        const secs = ((performance.now() - started) / 1000).toFixed(0);
        const which = repeats > 1 && config !== "today" ? ` (run ${repeat})` : "";
        console.log(row.error !== null ? `  ${task} ${config} seed ${seed}${which}: FAILED: ${row.error.slice(0, 300)}` : `  ${task} ${config} seed ${seed}${which}: target held-out ${row.target.heldout?.toFixed(3) ?? "—"} at ${row.target.containers} containers; reached it at ${row.reach === null ? `— (not within ${cap}×)` : `${row.reach.containers} containers, ${row.reach.cpuSeconds?.toFixed(0) ?? "?"} CPU-s`}; held-out at ${row.target.containers} containers ${row.heldoutAtEqual?.toFixed(3) ?? "—"}; ${row.run?.children} children, ${row.run?.emptyDiffs} empty (${secs} s, load ${row.run?.load.join("→")})`);
        await save(rows, false);
      }
    }
  }
  const summary = summarise(rows);
  console.log(table([
    ["task", "config", "runs", "reached", "containers to target", "today ÷ it (Σ today ÷ Σ it)", "CPU-s to target", "held-out at today's containers", "target held-out", "empty diffs"],
    ...summary.map((s) => [s.task, s.config, String(s.runs), `${s.reached}/${s.runs}`, fmt(s.containers, 0), s.paired === null ? "—" : `${s.paired.ratioOfTotals.toFixed(2)}×`, fmt(s.cpu, 0), fmt(s.held), fmt(s.target), `${(100 * s.emptyShare).toFixed(0)}%`]),
  ]));
  console.log("\ntoday ÷ it over the paired seeds: the ratio of the totals, its bootstrap interval over seeds, and the per-seed means (bench/lib/paired-ratio.ts says why three):");
  for (const s of summary) if (s.paired !== null && s.config !== "today") console.log(`  ${s.task} ${s.config}: ${formatPairedRatio(s.paired)} over ${s.paired.seeds} seeds`);
  const control = controlRatios(summary);
  if (control.length > 0) console.log("\ntoday-again ÷ it (the control's containers against each configuration's, seed by seed, the same target):");
  for (const c of control) console.log(`  ${c.task} ${c.config}: ${formatPairedRatio(c.paired)} over ${c.paired.seeds} seeds`);
  for (const task of tasks) {
    const shown = rows.filter((r) => r.task === task && r.error === null && [...configs, ...ablations].includes(r.config));
    const commits = [...new Set(shown.map((r) => r.commit ?? "unrecorded"))];
    if (commits.length > 1) console.log(`\nwarning: ${task}'s runs were made at ${commits.length} commits (${commits.join(", ")}): the ratios compare code as well as settings; --fresh (or a new --name) runs them all at this one`);
  }
  const repeated = summary.filter((s) => s.perSeed.some((p) => p.runs.length > 1));
  if (repeated.length > 0) console.log("\ncontainers to the target, each run of a seed (unreached: the cap):");
  for (const s of repeated) console.log(`  ${s.task} ${s.config}: ${s.perSeed.map((p) => `${p.seed}: ${p.runs.join(" / ")}`).join("; ")}`);
  const file = await save(rows, true);
  console.log(`${reduced ? "REDUCED settings; " : ""}load at the end ${load1()}; results: ${file}`);
}

await main();
