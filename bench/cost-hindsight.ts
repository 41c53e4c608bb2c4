/**
 * Issue 28's goal asks for ≥ 2× fewer containers than today's settings to the same held-out
 * score. This asks how far any configuration we have run could go, by hindsight: for each task
 * and seed, the fewest containers any recorded run of any configuration took to reach today's
 * target (an unreached run counted at the cap), as if the best run had been known in advance.
 * Today's containers over that best, as the ratio of the totals, bounds what choosing among the
 * configurations tried (and among their runs' luck at W = 2) can give. It runs nothing: it
 * reads the cost bench's files in bench/results/.
 *
 * A run counts only where its file shares today's run of that seed with the task's reference
 * file (the same target held-out, budget and today's own containers to it): files made by
 * copying the reference before a run do; files of another seed agent or harness set their
 * own targets and do not.
 *
 *   npx tsx bench/cost-hindsight.ts
 *   npx tsx bench/cost-hindsight.ts --tasks snake --reference cost-snake-24-same
 */
import { readdir } from "node:fs/promises";
import { argValue, checkArgs } from "./lib/args.js";
import { containersToTarget, COST_RESULTS_DIR, readCostRows, type CostRow } from "./lib/cost-rows.js";
import { table } from "./lib/stats.js";

checkArgs("npx tsx bench/cost-hindsight.ts [--tasks email-validation,snake,circle-packing] [--reference cost-<task>-24-same]");

/** The reference file of each built-in task: the one whose today's runs set the README's targets. */
const REFERENCES: Record<string, string> = { "email-validation": "cost-email-24-same", snake: "cost-snake-24-same", "circle-packing": "cost-circle-24-same" };
const tasks = argValue("tasks", Object.keys(REFERENCES).join(",")).split(",");
const referenceArg = argValue("reference", "");

/** A cost bench file's rows that ran to an end; a file that cannot be read is named on stderr and skipped. */
async function rowsOf(name: string): Promise<CostRow[]> {
  try {
    return (await readCostRows(name)).filter((r) => r.error === null);
  } catch (error) {
    console.error(`skipped bench/results/${name}.json: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

/** Today's run of a seed, as an identity: rows that share it faced the same target. */
const todayKey = (r: CostRow): string => `${r.target.heldout}|${r.target.containers}|${containersToTarget(r)}`;

interface Best {
  containers: number;
  config: string;
  file: string;
}

/** Every cost bench file's rows, by file name; read once for all tasks. */
type RowsByFile = ReadonlyMap<string, readonly CostRow[]>;

async function hindsight(task: string, reference: string, files: RowsByFile): Promise<void> {
  const today = new Map((files.get(reference) ?? (await rowsOf(reference))).filter((r) => r.task === task && r.config === "today").map((r) => [r.seed, r]));
  if (today.size === 0) throw new Error(`no run of today's settings for ${task} in bench/results/${reference}.json (--reference names a cost bench file)`);
  const runs = new Map<number, Best[]>();
  const filesUsed = new Set<string>();
  for (const [file, all] of files) {
    const rows = all.filter((r) => r.task === task);
    for (const row of rows) {
      const own = rows.find((r) => r.config === "today" && r.seed === row.seed);
      const ref = today.get(row.seed);
      if (row.config === "today" || own === undefined || ref === undefined || todayKey(own) !== todayKey(ref)) continue;
      runs.set(row.seed, [...(runs.get(row.seed) ?? []), { containers: containersToTarget(row), config: row.config, file }]);
      filesUsed.add(file);
    }
  }
  const seeds = [...today.keys()].sort((a, b) => a - b);
  const lines = seeds.map((seed) => {
    const mine = runs.get(seed) ?? [];
    const best = mine.reduce<Best | null>((b, r) => (b === null || r.containers < b.containers ? r : b), null);
    return { seed, today: containersToTarget(today.get(seed) as CostRow), runs: mine.length, configs: new Set(mine.map((r) => r.config)).size, best };
  });
  const totalToday = lines.reduce((n, l) => n + l.today, 0);
  const totalBest = lines.reduce((n, l) => n + Math.min(l.today, l.best?.containers ?? l.today), 0);
  console.log(`\n${task}: today's targets from bench/results/${reference}.json; runs read from ${filesUsed.size} files (${[...filesUsed].sort().join(", ")})`);
  console.log(table([
    ["seed", "today's containers to its target", "other runs (configurations)", "fewest another run took", "by", "in"],
    ...lines.map((l) => [String(l.seed), String(l.today), `${l.runs} (${l.configs})`, String(l.best?.containers ?? "—"), l.best?.config ?? "—", l.best?.file ?? "—"]),
  ]));
  console.log(`today's total ${totalToday}; by hindsight, the fewest of any run, today's own included, ${totalBest}: today ÷ hindsight ${(totalToday / totalBest).toFixed(2)}×`);
}

try {
  const names = (await readdir(COST_RESULTS_DIR)).filter((f) => f.startsWith("cost") && f.endsWith(".json")).map((f) => f.slice(0, -5));
  const files: RowsByFile = new Map(await Promise.all(names.map(async (name) => [name, await rowsOf(name)] as const)));
  for (const task of tasks) {
    const reference = referenceArg !== "" ? referenceArg : REFERENCES[task];
    if (reference === undefined) throw new Error(`no reference file known for ${task}: pass --reference NAME (a bench/results/NAME.json of the cost bench)`);
    await hindsight(task, reference, files);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
