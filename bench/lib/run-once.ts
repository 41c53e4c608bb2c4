/**
 * One evolution run in its own process (so its peak RSS is the harness's alone; containers
 * are not children of it), started the way bin/evolve.js starts (its node flags, tsx's ESM hooks only). Prints one JSON line: wall time, generation rate, scores, peak RSS, containers.
 * With `containerBudget`, the run is stopped (as by Ctrl-C) once that many containers have
 * started through the harness, whatever they were for: self-modification, checks, evaluations
 * of children and of ctx.evaluate drafts alike.
 *
 *   node <bin/evolve.js's flags> --import tsx/esm bench/lib/run-once.ts <json BenchRunOptions>
 */
import { countingEngine, DEFAULT_WARM_POOL } from "../../harness/src/evolution/index.js";
import { connectEngines, LOCAL_ENGINE } from "../../sandbox/src/index.js";
import { abortOnSignal, reportInterrupted } from "./interrupt.js";
import { removeRoot, runEvolution, type BenchRunOptions } from "./run-evolution.js";

export interface RunOnceResult {
  wallMs: number;
  children: number;
  valid: number;
  /** Children per minute between the seed's record and the last child's. */
  perMinute: number;
  /** Best visible score after each child (index 0: the seed alone). */
  bestVisibleCurve: (number | null)[];
  best: { id: string; visible: number | null; heldout: number | null } | null;
  maxHeldout: number | null;
  maxRssMb: number;
  problems: string[];
  /** Containers started through the harness (a warm pool's unused ones not counted). */
  containers: number;
  /** Of those, the ctx.evaluate drafts' (import checks and evaluations). */
  evaluateContainers: number;
  /** Children recorded as duplicates of an earlier generation. */
  duplicates: number;
}

const options = JSON.parse(process.argv[2] ?? "{}") as BenchRunOptions & { warmPool?: number; containerBudget?: number };
// The warm pool `evolve run` keeps by default, unless the caller says otherwise.
const engine = await connectEngines(LOCAL_ENGINE, { warmPool: options.warmPool ?? DEFAULT_WARM_POOL });
const stop = new AbortController();
const interrupted = abortOnSignal(stop);
const budget = options.containerBudget;
// The run stops (as on Ctrl-C) as the budget's last container starts: the children in flight then are not recorded.
const counted = countingEngine(engine, (count) => {
  if (budget !== undefined && count >= budget) stop.abort();
});
try {
  const run = await runEvolution(counted.engine, options, stop.signal);
  const gens = [...run.generations].sort((a, b) => a.id.localeCompare(b.id));
  const curve: (number | null)[] = [];
  let best: (typeof gens)[number] | null = null;
  for (const g of gens) {
    if (g.status.kind === "valid" && g.scores.visible !== null && (best === null || g.scores.visible > (best.scores.visible ?? -1))) best = g;
    curve.push(best?.scores.visible ?? null);
  }
  const times = gens.map((g) => Date.parse(g.createdAt));
  const span = (Math.max(...times) - Math.min(...times)) / 60_000;
  const children = gens.length - 1;
  const heldouts = gens.map((g) => g.scores.heldout).filter((h): h is number => h !== null);
  const result: RunOnceResult = {
    wallMs: run.wallMs,
    children,
    valid: gens.filter((g) => g.parent !== null && g.status.kind === "valid").length,
    perMinute: span > 0 ? children / span : NaN,
    bestVisibleCurve: curve,
    best: best === null ? null : { id: best.id, visible: best.scores.visible, heldout: best.scores.heldout },
    maxHeldout: heldouts.length === 0 ? null : Math.max(...heldouts),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    problems: run.problems,
    containers: counted.started(),
    evaluateContainers: gens.reduce((sum, g) => sum + (g.evaluateCalls?.containers ?? 0), 0),
    duplicates: gens.filter((g) => g.status.kind === "duplicate").length,
  };
  if (options.out === undefined) await removeRoot(run.root);
  const signal = interrupted();
  if (signal !== null) reportInterrupted(signal);
  else process.stdout.write(JSON.stringify(result) + "\n");
} finally {
  await engine.close();
}
