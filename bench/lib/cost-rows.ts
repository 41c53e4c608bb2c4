/**
 * The rows of bench/cost.ts's results files (bench/results/cost-*.json): one run of one
 * configuration on one task and seed. bench/cost.ts writes and extends them;
 * bench/cost-hindsight.ts reads them all.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { CostRunResult } from "./cost-run.js";
import { BENCH_DIR } from "./stats.js";

/** The loop's settings a configuration changes. */
export interface CostConfig {
  selection: string;
  attempts: number;
  racing: boolean;
  discountBarren: boolean;
  /** ctx.evaluate calls a generation may make (drafts); the run's default when absent. */
  evaluations?: number;
}

export interface CostRow {
  task: string;
  config: string;
  seed: number;
  /** Which run of this seed (1 when absent: files written before --repeats). */
  repeat?: number;
  settings: CostConfig & { children: number; cap: number; workers: number };
  /** Today's end (the target and the budget to compare at), copied into every row of its task and seed. */
  target: { heldout: number | null; containers: number };
  reach: { containers: number; cpuSeconds: number | null } | null;
  heldoutAtEqual: number | null;
  run: Omit<CostRunResult, "steps"> | null;
  error: string | null;
  finishedAt: string;
  /** The commit it ran at (absent: recorded before rows kept it). */
  commit?: string | null;
}

export const COST_RESULTS_DIR = join(BENCH_DIR, "results");

/** Containers the run took to today's target; a run that never reached it counts at its cap. */
export function containersToTarget(row: CostRow): number {
  return row.reach?.containers ?? row.settings.cap * row.target.containers;
}

/** The rows of bench/results/NAME.json (all of them, failed runs included); throws if the file cannot be read. */
export async function readCostRows(name: string): Promise<CostRow[]> {
  const saved = JSON.parse(await readFile(join(COST_RESULTS_DIR, `${name}.json`), "utf8")) as { results?: { rows?: CostRow[] } };
  return saved.results?.rows ?? [];
}
