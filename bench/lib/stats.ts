/** Shared by the benchmarks: percentiles, timing, tables, and results on disk. */
import { mkdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join, resolve } from "node:path";

export const BENCH_DIR = resolve(import.meta.dirname, "..");

/** Nearest-rank percentile of `values` (0 < p ≤ 100). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function summarize(values: number[]): { n: number; p50: number; p95: number; min: number; max: number } {
  return { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), min: Math.min(...values), max: Math.max(...values) };
}

export async function timeIt(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

/** A plain-text table: first row is the header. */
export function table(rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map((c) => (typeof c === "number" ? c.toFixed(c >= 100 ? 0 : 1) : c)));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

/** Write results as JSON in bench/results/<name>.json, with when and where they were measured. */
export async function saveResults(name: string, results: unknown): Promise<string> {
  const dir = join(BENCH_DIR, "results");
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "unknown", node: process.version };
  await writeFile(file, JSON.stringify({ measuredAt: new Date().toISOString(), machine, results }, null, 2) + "\n");
  return file;
}

/** A table cell for a figure a group may lack (no child stopped, say): a dash, not NaN. */
export const cell = (value: number | undefined): number | string => (value === undefined || Number.isNaN(value) ? "—" : value);
