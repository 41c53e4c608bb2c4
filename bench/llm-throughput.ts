/**
 * Part 6 of issue 17, throughput with a slow model: the LLM path (the seed's tool loop,
 * through the real broker and openai client) against the shared scripted server, which
 * answers every call after a fixed latency, at W = 1, 4, 8, 16. A child takes three model
 * turns (read the solver, replace a knob, finish), so latency alone allows
 *   ideal = children / (ceil(children / W) × turns × latency)   per minute,
 * and the harness is the bottleneck by as much as the measured rate falls short of it.
 * Each W runs in its own harness process; the server runs here, outside it.
 *
 *   npx tsx bench/llm-throughput.ts [options]   (the options: the checkArgs line below; --help prints it)
 */
import { join } from "node:path";
import { readRun, readTranscript, type GenerationRecord } from "../harness/src/archive/index.js";
import { DEFAULT_TASK } from "../harness/src/evolution/index.js";
import { startScriptedOpenAIServer } from "../tests/support/scripted-openai-server.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { sampleCpuBusy } from "./lib/cpu-busy.js";
import { benchArchiveRoot, removeRoot } from "./lib/run-evolution.js";
import { CODER_TURNS, scriptedCoder } from "./lib/scripted-coder.js";
import { spawnRun } from "./lib/spawn-run.js";
import { percentile, saveResults, table } from "./lib/stats.js";

checkArgs("npx tsx bench/llm-throughput.ts [--latency-ms 2000] [--workers 1,4,8,16] [--waves 3] [--task email-validation]");

const latencyMs = argInt("latency-ms", 2_000);
const workers = argValue("workers", "1,4,8,16").split(",").map(Number);
/** Children per W = waves × W (at least 8), so every W runs full waves. */
const waves = argInt("waves", 3);
const task = argValue("task", DEFAULT_TASK);
const TURNS = CODER_TURNS;
/** Phases whose median wall time per child is printed: where a child's time goes as W grows. */
const PHASES = ["selfModify", "compile", "import", "evaluate", "total"] as const;

/**
 * Median milliseconds per phase over a run's children (the seed left out), and the window the
 * rate is measured over: from the seed's record to the last child's (epoch ms).
 */
function phasesOf(generations: readonly GenerationRecord[]): { phases: Record<(typeof PHASES)[number], number>; window: [number, number] } {
  const children = generations.filter((g) => g.parent !== null);
  const median = (phase: (typeof PHASES)[number]) => percentile(children.map((g) => g.timings[phase] ?? NaN).filter((t) => !Number.isNaN(t)), 50);
  const times = generations.map((g) => Date.parse(g.createdAt));
  return { phases: Object.fromEntries(PHASES.map((p) => [p, median(p)])) as Record<(typeof PHASES)[number], number>, window: [Math.min(...times), Math.max(...times)] };
}

/**
 * How long each child took to its agent's first action (its first tool or model call, from
 * the harness's transcript): the container taken, the trees sent in, the agent loaded, all
 * under the other children's load. The first wave (W children starting together) apart from
 * the later ones (started as earlier children finished). Seconds, median and max.
 */
async function firstActions(runDir: string, generations: readonly GenerationRecord[], workers: number): Promise<Record<"firstWave" | "later", { p50: number; max: number } | null>> {
  const children = generations.filter((g) => g.parent !== null).sort((a, b) => a.id.localeCompare(b.id));
  const delays: { wave1: boolean; s: number }[] = [];
  for (const [i, g] of children.entries()) {
    const started = Date.parse(g.createdAt) - (g.timings.total ?? NaN);
    const first = (await readTranscript(runDir, g.id)).entries.find((e) => e.kind === "tool" || e.kind === "llm");
    if (first !== undefined && !Number.isNaN(started)) delays.push({ wave1: i < workers, s: (Date.parse(first.at) - started) / 1000 });
  }
  const summary = (xs: number[]) => (xs.length === 0 ? null : { p50: percentile(xs, 50), max: Math.max(...xs) });
  return { firstWave: summary(delays.filter((d) => d.wave1).map((d) => d.s)), later: summary(delays.filter((d) => !d.wave1).map((d) => d.s)) };
}

async function main(): Promise<void> {
  console.log(`llm throughput: task ${task}, ${latencyMs} ms per model call, ${TURNS} calls per child, W = ${workers.join(", ")}, ${waves} waves per W`);
  const rows = [];
  for (const w of workers) {
    const server = await startScriptedOpenAIServer(scriptedCoder(task, latencyMs));
    const out = await benchArchiveRoot("llm-throughput");
    const generations = Math.max(8, waves * w);
    const loadBefore = load1();
    const busy = sampleCpuBusy();
    try {
      const r = await spawnRun({ task, generations, workers: w, seed: 1, out, runId: "llm", llm: { baseURL: server.baseURL, model: "scripted-model" } });
      const calls = server.chatRequests().length;
      const callsPerChild = calls / Math.max(1, r.children);
      const idealMinutes = (Math.ceil(r.children / w) * TURNS * latencyMs) / 60_000;
      const ideal = r.children / idealMinutes;
      const runDir = join(out, "llm");
      const records = (await readRun(runDir)).generations;
      const { phases, window } = phasesOf(records);
      const cpu = busy.summary(...window);
      const firstAction = await firstActions(runDir, records, w);
      rows.push({ workers: w, loadBefore, loadAfter: load1(), calls, callsPerChild, ideal, ofIdeal: r.perMinute / ideal, phases, firstAction, cpu, ...r, bestVisibleCurve: undefined });
    } finally {
      busy.stop();
      await server.close();
      await removeRoot(out);
    }
  }
  console.log(table([
    ["W", "children", "valid", "calls/child", "children/min", "ideal/min", "of ideal", "run wall s", "harness peak RSS MB", "load avg"],
    ...rows.map((r) => [String(r.workers), String(r.children), String(r.valid), r.callsPerChild, r.perMinute, r.ideal, `${(100 * r.ofIdeal).toFixed(0)}%`, r.wallMs / 1000, r.maxRssMb, `${r.loadBefore}→${r.loadAfter}`]),
  ]));
  console.log(`\nmedian wall time per child and phase, s (self-modify includes the ${TURNS} × ${latencyMs / 1000} s of model latency):`);
  console.log(table([["W", ...PHASES], ...rows.map((r) => [String(r.workers), ...PHASES.map((p) => r.phases[p] / 1000)])]));
  const delay = (d: { p50: number; max: number } | null): string => (d === null ? "—" : `${d.p50.toFixed(2)} / ${d.max.toFixed(2)}`);
  console.log("\nfrom a child's start to its agent's first tool or model call, s (median / max): the W children that start together, and those started later:");
  console.log(table([["W", "first wave", "later"], ...rows.map((r) => [String(r.workers), delay(r.firstAction.firstWave), delay(r.firstAction.later)])]));
  console.log(`\nthe machine's CPUs over the rate's window (every process: harness, containers, Docker engine), sampled every 0.1 s:`);
  console.log(table([["W", "window s", "mean busy", "saturated s (all cores ≥ 95 %)"], ...rows.map((r) => [String(r.workers), ...(r.cpu === null ? ["—", "—", "—"] : [r.cpu.seconds, `${(100 * r.cpu.meanBusy).toFixed(0)}%`, r.cpu.saturatedSeconds])])]));
  const file = await saveResults("llm-throughput", { task, latencyMs, turns: TURNS, waves, rows });
  console.log(`results: ${file}`);
}

await main();
