/**
 * Scale-out: children per minute on 1, 2 and 3 Docker engines, on a latency-bound workload
 * (the seed agent with every `solve` call waiting a fixed time first, so a container holds its
 * slot while it waits, like an LLM call or a slow test would), so that one 2-core machine can
 * show what the scheduler does rather than what its cores do. The engines are the test
 * fixture's (tests/support/extra-engines.ts): each in its own network namespace, reached over
 * TCP with TLS through a Docker context, exactly as `--engine` reaches a remote one. Needs
 * root. Each engine has its default slots (2 on a 2-core machine); workers = slots.
 *
 * Also the coordinator's overhead per container: the harness process's CPU time per container
 * and the latency from asking for a container to having it running (placement included).
 *
 * Two rates, each against n × the one-engine rate of the same repeat: children per minute,
 * and containers per second. The second is the fairer one when runs differ in how many of
 * their children are valid (an invalid child stops early and costs fewer containers, so
 * children per minute moves with the valid share, not only with the engines). Every count of
 * engines runs `--repeats` times, the counts taking turns, and the efficiencies are printed
 * as the median and the range over the repeats.
 *
 *   npx tsx bench/engines.ts [--engines 1,2,3] [--children-per-engine 8] [--wait-ms 2000] [--repeats 3]
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startRun } from "../harness/src/evolution/index.js";
import { readRun } from "../harness/src/archive/index.js";
import { connectEngines, type SandboxEngine } from "../sandbox/src/index.js";
import { startExtraEngines } from "../tests/support/extra-engines.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { percentile, saveResults, summarize, table } from "./lib/stats.js";
import { timingEngine } from "./lib/timing-engine.js";

checkArgs("npx tsx bench/engines.ts [--engines 1,2,3] [--children-per-engine 8] [--wait-ms 2000] [--repeats 3]");

const counts = argValue("engines", "1,2,3").split(",").map(Number);
const perEngine = argInt("children-per-engine", 8);
const waitMs = argInt("wait-ms", 2000);
const repeats = argInt("repeats", 3);
const REPO = resolve(import.meta.dirname, "..");

/** The seed agent, every `solve` call waiting `waitMs` first (a string constant: no offline move touches it). */
async function latencyAgent(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "evolve-bench-latency-agent-"));
  await cp(join(REPO, "seed-agent"), dir, { recursive: true });
  const index = join(dir, "task", "index.ts");
  const text = await readFile(index, "utf8");
  const head = "export const solve: SolveFn = async (input: Json, ctx: SolveContext): Promise<Json> => {";
  if (!text.includes(head)) throw new Error(`seed-agent/task/index.ts changed: no "${head}" to add the wait to`);
  await writeFile(index, text.replace(head, `const WAIT_MS = "${waitMs}";\n\n${head}\n  await new Promise((resolve) => setTimeout(resolve, Number(WAIT_MS)));`));
  return dir;
}

interface Row {
  engines: number;
  repeat: number;
  workers: number;
  children: number;
  valid: number;
  perMinute: number;
  wallS: number;
  containers: number;
  /** Containers handed out over the run's wall time. */
  containersPerSecond: number;
  harnessCpuMsPerContainer: number;
  startMs: { p50: number; p95: number };
  load: string;
}

async function measure(engine: SandboxEngine, n: number, repeat: number, agent: string): Promise<Row> {
  const timed = timingEngine(engine);
  const out = await mkdtemp(join(tmpdir(), "evolve-bench-engines-"));
  const workers = engine.engines().reduce((s, e) => s + (e.slots ?? 0), 0);
  const generations = perEngine * n;
  const loadBefore = load1();
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    const summary = await startRun({ agent, generations, workers, seed: 1, out }, { sink: { isTTY: false, write: () => undefined }, signal: new AbortController().signal, env: {}, engine: timed.engine });
    const used = process.cpuUsage(cpu);
    const gens = (await readRun(summary.runDir)).generations;
    const times = gens.map((g) => Date.parse(g.createdAt));
    const spanMin = (Math.max(...times) - Math.min(...times)) / 60_000;
    const starts = timed.traces.filter((t) => t.startedAt !== null).map((t) => (t.startedAt ?? 0) - t.requestedAt);
    const s = summarize(starts);
    const wallS = (performance.now() - started) / 1000;
    return {
      engines: n,
      repeat,
      workers,
      children: gens.length - 1,
      valid: gens.filter((g) => g.parent !== null && g.status.kind === "valid").length,
      perMinute: (gens.length - 1) / spanMin,
      wallS,
      containers: timed.traces.length,
      containersPerSecond: timed.traces.length / wallS,
      harnessCpuMsPerContainer: (used.user + used.system) / 1000 / Math.max(1, timed.traces.length),
      startMs: { p50: s.p50, p95: s.p95 },
      load: `${loadBefore}→${load1()}`,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const most = Math.max(...counts);
  console.log(`scale-out: ${counts.join(", ")} engines, ${perEngine} children per engine, every solve call waits ${waitMs} ms; starting ${most} engines`);
  const fx = await startExtraEngines(Array.from({ length: most }, () => ({})));
  const agent = await latencyAgent();
  process.env["DOCKER_CONFIG"] = fx.dockerConfig;
  const rows: Row[] = [];
  try {
    // Every engine gets the runtime image first, so no configuration pays for a build.
    const all = await connectEngines({ engines: fx.engines.map((e) => ({ spec: e.context })), requireAll: true });
    await all.ensureRuntimeImage({ onProgress: (m) => console.log(m) });
    await all.close();
    for (let repeat = 1; repeat <= repeats; repeat++) {
      for (const n of counts) {
        const engine = await connectEngines({ engines: fx.engines.slice(0, n).map((e) => ({ spec: e.context })), requireAll: true }, { warmPoolDefault: 2 });
        try {
          const row = await measure(engine, n, repeat, agent);
          console.log(`repeat ${repeat}, ${n} engine(s): ${row.children} children (${row.valid} valid) in ${row.wallS.toFixed(0)} s, ${row.perMinute.toFixed(1)}/min, ${row.containersPerSecond.toFixed(2)} containers/s`);
          rows.push(row);
        } finally {
          await engine.close();
        }
      }
    }
  } finally {
    await fx.dispose();
    await rm(agent, { recursive: true, force: true });
  }
  const measured = rows.map((r) => ({ ...r, ...efficiencies(rows, r) }));
  console.log(
    table([
      ["engines", "repeat", "workers", "children", "valid", "children/min", "vs n × 1", "containers/s", "vs n × 1", "wall s", "containers", "harness CPU ms/container", "start p50 / p95 ms", "load avg"],
      ...measured.map((r) => [String(r.engines), String(r.repeat), String(r.workers), String(r.children), String(r.valid), r.perMinute.toFixed(1), percent(r.childrenEfficiency), r.containersPerSecond.toFixed(2), percent(r.containerEfficiency), r.wallS.toFixed(0), String(r.containers), r.harnessCpuMsPerContainer.toFixed(1), `${r.startMs.p50.toFixed(0)} / ${r.startMs.p95.toFixed(0)}`, r.load]),
    ]),
  );
  console.log(`\nover ${repeats} repeat(s), each against the one-engine run of its own repeat: median (min–max)`);
  const spread = counts.map((n) => {
    const of = measured.filter((r) => r.engines === n);
    return { engines: n, children: range(of.map((r) => r.childrenEfficiency)), containers: range(of.map((r) => r.containerEfficiency)) };
  });
  console.log(
    table([
      ["engines", "children/min vs n × 1", "containers/s vs n × 1"],
      ...spread.map((s) => [String(s.engines), `${percent(s.children.median)} (${percent(s.children.min)}–${percent(s.children.max)})`, `${percent(s.containers.median)} (${percent(s.containers.min)}–${percent(s.containers.max)})`]),
    ]),
  );
  const file = await saveResults("engines", { perEngine, waitMs, repeats, rows: measured, spread });
  console.log(`results: ${file}`);
}

/** A row's two rates against n × the one-engine run of the same repeat. */
function efficiencies(rows: readonly Row[], r: Row): { childrenEfficiency: number; containerEfficiency: number } {
  const base = rows.find((b) => b.engines === 1 && b.repeat === r.repeat);
  if (base === undefined) return { childrenEfficiency: NaN, containerEfficiency: NaN };
  return { childrenEfficiency: r.perMinute / (r.engines * base.perMinute), containerEfficiency: r.containersPerSecond / (r.engines * base.containersPerSecond) };
}

function range(values: number[]): { median: number; min: number; max: number } {
  return { median: percentile(values, 50), min: Math.min(...values), max: Math.max(...values) };
}

const percent = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : "—");

await main();
