/**
 * Part 5, archive scale and memory: synthetic runs of 1,000 and 10,000 generations written
 * through the real ArchiveWriter (on /dev/shm when present: the writer fsyncs every file, and
 * tmpfs makes that free, so writing is fast; reading is the same code either way), then each
 * in its own process: loading (readRun), `evolve tree` (bin/evolve.js, as a user runs it),
 * and writing the HTML report (writeReport); wall time and peak RSS of each. Then the peak
 * RSS of the harness during a real W = 2 run: `evolve run` as a user starts it (its own
 * process, the CLI's node flags), offline, on the default task.
 *
 *   npx tsx bench/archive-scale.ts [options]   (the options: the checkArgs line below; --help prints it)
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { argInt, argValue, checkArgs } from "./lib/args.js";
import { evolveCli, harnessNode } from "./lib/harness-node.js";
import { measureProcess, type ProcessMeasure } from "./lib/measure-process.js";
import { saveResults, table } from "./lib/stats.js";
import { writeSyntheticArchive } from "./lib/synthetic-archive.js";

checkArgs("npx tsx bench/archive-scale.ts [--sizes 1000,10000] [--reps 3] [--run-generations 20]");

const REPO = resolve(import.meta.dirname, "..");
const sizes = argValue("sizes", "1000,10000").split(",").map(Number);
const scratch = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
/** Each process is measured this many times; the median is reported (the machine is shared). */
const reps = Math.max(1, argInt("reps", 3));
const runGenerations = argInt("run-generations", 20);

/** Peak RSS of `evolve run --workers 2` (whole process), `reps` times. */
async function measureRunRss(): Promise<{ generations: number; workers: number; maxRssMb: (number | null)[]; wallMs: number[]; exitCodes: (number | null)[] }> {
  const out = { generations: runGenerations, workers: 2, maxRssMb: [] as (number | null)[], wallMs: [] as number[], exitCodes: [] as (number | null)[] };
  for (let i = 0; i < reps; i++) {
    const root = await mkdtemp(join(tmpdir(), "evolve-bench-rss-"));
    try {
      const m = await measureProcess(...evolveCli("run", "--generations", String(runGenerations), "--workers", "2", "--out", root), REPO);
      out.maxRssMb.push(m.maxRssMb);
      out.wallMs.push(m.wallMs);
      out.exitCodes.push(m.exitCode);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
  return out;
}

/** The run with the median wall time of `reps` runs of `measure`. */
async function median<T extends { wallMs: number }>(measure: () => Promise<T>): Promise<T & { allWallMs: number[] }> {
  const runs: T[] = [];
  for (let i = 0; i < reps; i++) runs.push(await measure());
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  return { ...(sorted[Math.floor((sorted.length - 1) / 2)] as T), allWallMs: runs.map((r) => r.wallMs) };
}

interface SizeResult {
  generations: number;
  writeMs: number;
  load: ProcessMeasure & { innerMs: number };
  tree: ProcessMeasure & { lines: number };
  report: ProcessMeasure & { innerMs: number };
}

async function main(): Promise<void> {
  const results: SizeResult[] = [];
  for (const n of sizes) {
    const root = await mkdtemp(join(scratch, "evolve-bench-scale-"));
    try {
      const t = performance.now();
      const runDir = await writeSyntheticArchive(root, `synthetic-${n}`, n);
      const writeMs = performance.now() - t;
      const op = async (name: string): Promise<ProcessMeasure & { innerMs: number }> => {
        const m = await measureProcess(...harnessNode(join(REPO, "bench/lib/archive-op.ts"), name, runDir), REPO);
        const parsed = JSON.parse(m.stdout.trim().split("\n").pop() ?? "{}") as { ms?: number };
        return { ...m, stdout: "", innerMs: parsed.ms ?? NaN };
      };
      const load = await median(() => op("load"));
      const tree = await median(async () => {
        const m = await measureProcess(...evolveCli("tree", `synthetic-${n}`, "--out", root), REPO);
        return { ...m, stdout: "", lines: m.stdout.split("\n").length - 1 };
      });
      const report = await median(() => op("report"));
      results.push({ generations: n, writeMs, load, tree, report });
      if (tree.exitCode !== 0 || load.exitCode !== 0 || report.exitCode !== 0) console.log(`warning: a process failed for ${n} generations`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
  const mb = (x: number | null): string => (x === null ? "n/a" : x.toFixed(0));
  console.log(table([
    ["generations", "write s", "load s (in-proc)", "load RSS MB", "evolve tree s", "tree RSS MB", "report s (in-proc)", "report RSS MB"],
    ...results.map((r) => [String(r.generations), r.writeMs / 1000, `${(r.load.wallMs / 1000).toFixed(2)} (${(r.load.innerMs / 1000).toFixed(2)})`, mb(r.load.maxRssMb), r.tree.wallMs / 1000, mb(r.tree.maxRssMb), `${(r.report.wallMs / 1000).toFixed(2)} (${(r.report.innerMs / 1000).toFixed(2)})`, mb(r.report.maxRssMb)]),
  ]));
  const run = await measureRunRss();
  console.log(`evolve run --generations ${run.generations} --workers 2: peak RSS ${run.maxRssMb.map(mb).join(", ")} MB in ${run.wallMs.map((w) => (w / 1000).toFixed(0)).join(", ")} s (exit ${run.exitCodes.join(", ")}; goal ≤ 300 MB)`);
  console.log(`median of ${reps} runs each; wall times are whole processes (node + tsx start-up included); 'in-proc' is the operation alone. Goals: 1,000 generations load and print (evolve tree) ≤ 2 s; peak RSS ≤ 300 MB.`);
  const file = await saveResults("archive-scale", { scratch, reps, note: "synthetic runs written through the real ArchiveWriter; each operation in its own process under /usr/bin/time -v", results, run });
  console.log(`results: ${file}`);
}

await main();
