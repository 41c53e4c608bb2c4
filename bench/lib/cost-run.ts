/**
 * One evolution run for bench/cost.ts, in its own process: containers and CPU-seconds are
 * metered as they are spent, and every recorded generation is stamped with both, so the
 * caller can say how much a run had spent when its best first reached a held-out score, and
 * what its best was at a given container budget. The run stops (as on Ctrl-C) when its
 * container budget is spent, or once it has reached `stopWhen.heldout` and spent
 * `stopWhen.containers` (nothing after that point changes either figure).
 *
 *   node <bin/evolve.js's flags> --import tsx/esm bench/lib/cost-run.ts <json CostRunOptions>
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { readRun, type GenerationRecord } from "../../harness/src/archive/index.js";
import { bestGeneration } from "../../harness/src/selection/index.js";
import { countingEngine, DEFAULT_WARM_POOL } from "../../harness/src/evolution/index.js";
import { connectEngines, LOCAL_ENGINE } from "../../sandbox/src/index.js";
import { cpuMeter } from "./cpu-meter.js";
import { abortOnSignal, reportInterrupted } from "./interrupt.js";
import { benchArchiveRoot, removeRoot, runEvolution, type BenchRunOptions } from "./run-evolution.js";

export interface CostRunOptions extends BenchRunOptions {
  warmPool?: number;
  containerBudget?: number;
  stopWhen?: { heldout: number; containers: number };
}

/** The run's state when one generation was recorded (in record order). */
export interface CostStep {
  id: string;
  /** Containers and CPU-seconds (harness + containers; null when containers could not be metered) spent by then. */
  containers: number;
  cpuSeconds: number | null;
  /** The best generation then (bestGeneration over what was recorded), its whole visible and held-out scores. */
  best: { id: string; visible: number | null; heldout: number | null } | null;
}

export interface CostRunResult {
  wallMs: number;
  children: number;
  valid: number;
  emptyDiffs: number;
  /** Children whose race stopped early, and those whose held-out split was skipped by the rule. */
  raced: number;
  heldoutSkipped: number;
  containers: number;
  cpu: { harness: number; containers: number | null };
  steps: CostStep[];
  /** The 1-minute load average when the run started and ended (the machine may be shared). */
  load: [number, number];
}

const POLL_MS = 3_000;

const options = JSON.parse(process.argv[2] ?? "{}") as CostRunOptions;
const loadStart = loadavg()[0] ?? 0;
const pooled = await connectEngines(LOCAL_ENGINE, { warmPool: options.warmPool ?? DEFAULT_WARM_POOL });
const stop = new AbortController();
const samples: { at: number; containers: number; cpu: number | null }[] = [];
let started = 0;
const meter = cpuMeter(pooled);
const sample = (): void => {
  const cpu = meter.read();
  samples.push({ at: Date.now(), containers: started, cpu: cpu.containers === null ? null : cpu.harness + cpu.containers });
};
const counted = countingEngine(meter.engine, (count) => {
  started = count;
  sample();
  if (options.containerBudget !== undefined && count >= options.containerBudget) stop.abort();
});
const ticker = setInterval(sample, 500);
const interrupted = abortOnSignal(stop);

/** The best after each recorded generation, in record order, stamped with what had been spent by then. */
function stepsOf(gens: readonly GenerationRecord[]): CostStep[] {
  const ordered = [...gens].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return ordered.map((g, i) => {
    const at = Date.parse(g.createdAt);
    const spent = samples.filter((s) => s.at <= at).at(-1) ?? { containers: 0, cpu: null };
    const best = bestGeneration(ordered.slice(0, i + 1));
    return { id: g.id, containers: spent.containers, cpuSeconds: spent.cpu, best: best === null ? null : { id: best.id, visible: best.scores.visible, heldout: best.scores.heldout } };
  });
}

// Stops the run once it has reached the held-out target and spent the containers to compare at.
const out = options.out ?? (await benchArchiveRoot("cost"));
const runId = options.runId ?? `cost-${process.pid}`;
const watcher =
  options.stopWhen === undefined
    ? null
    : setInterval(() => {
        void readRun(join(out, runId))
          .then(({ generations }) => {
            const reached = stepsOf(generations).some((s) => (s.best?.heldout ?? -1) >= (options.stopWhen?.heldout ?? Infinity) - 1e-9);
            if (reached && started >= (options.stopWhen?.containers ?? Infinity)) stop.abort();
          })
          .catch(() => undefined);
      }, POLL_MS);

try {
  const run = await runEvolution(counted.engine, { ...options, out, runId }, stop.signal);
  sample();
  const gens = run.generations;
  const children = gens.filter((g) => g.parent !== null);
  const cpu = meter.read();
  const result: CostRunResult = {
    wallMs: run.wallMs,
    children: children.length,
    valid: children.filter((g) => g.status.kind === "valid").length,
    emptyDiffs: children.filter((g) => g.status.kind === "invalid" && g.status.code === "empty_diff").length,
    raced: children.filter((g) => g.evaluation?.race !== undefined && g.evaluation.race.stop !== "complete").length,
    heldoutSkipped: children.filter((g) => g.evaluation?.heldoutSkipped !== undefined).length,
    containers: counted.started(),
    cpu,
    steps: stepsOf(gens),
    load: [Math.round(loadStart * 100) / 100, Math.round((loadavg()[0] ?? 0) * 100) / 100],
  };
  if (options.out === undefined) await removeRoot(out);
  const signal = interrupted();
  if (signal !== null) reportInterrupted(signal);
  else process.stdout.write(JSON.stringify(result) + "\n");
} finally {
  clearInterval(ticker);
  if (watcher !== null) clearInterval(watcher);
  meter.stop();
  await pooled.close();
}
