/**
 * Where the CPU of a child goes (issue 29): CPU-seconds per child split by the harness
 * process, its check worker, the containers (cgroup accounting: the run's containers share a
 * parent cgroup, which keeps their CPU after they are removed), the engine's daemons
 * (dockerd + containerd) and the shims of the run's containers; at each W, offline and with
 * the slow scripted model (bench/lib/scripted-coder.ts, served here, outside the harness, as a
 * remote model would be). Also: containers handed out per child by phase, and Docker API
 * requests per container. Each run is its own harness process (bench/lib/cpu-run.ts), measured
 * from its first child's self-modification to its end, so start-up and the seed are left out.
 *
 *   npx tsx bench/cpu.ts [options]   (the options: the checkArgs line below; --help prints it)
 */
import { DEFAULT_TASK } from "../harness/src/evolution/index.js";
import { startScriptedOpenAIServer } from "../tests/support/scripted-openai-server.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { probeRun, type CpuProbe } from "./lib/cpu-probe.js";
import { scriptedCoder } from "./lib/scripted-coder.js";
import { saveResults, table } from "./lib/stats.js";

checkArgs("npx tsx bench/cpu.ts [--workers 1,8] [--models offline,slow] [--waves 2] [--latency-ms 2000] [--task email-validation] [--pool 2]");

const workers = argValue("workers", "1,8").split(",").map(Number);
const models = argValue("models", "offline,slow").split(",");
/** Children per run = waves × W (at least 4). */
const waves = argInt("waves", 2);
const latencyMs = argInt("latency-ms", 2_000);
const task = argValue("task", DEFAULT_TASK);
const pool = argInt("pool", 2);

interface Row extends CpuProbe {
  model: string;
  workers: number;
  loadBefore: number;
  loadAfter: number;
}

const SPLIT = ["harness", "worker", "containers", "daemons", "shims"] as const;
const total = (r: Row): number => SPLIT.reduce((sum, k) => sum + r.cpu[k], 0);

async function measure(model: string, w: number): Promise<Row> {
  if (model !== "offline" && model !== "slow") throw new Error(`--models: offline or slow, not ${model}`);
  const server = model === "slow" ? await startScriptedOpenAIServer(scriptedCoder(task, latencyMs)) : null;
  const loadBefore = load1();
  try {
    const probe = await probeRun(
      { task, generations: Math.max(4, waves * w), workers: w, seed: 1, warmPool: pool, ...(server === null ? {} : { llm: { baseURL: server.baseURL, model: "scripted-model" } }) },
      `${model}-w${w}`,
    );
    return { model, workers: w, loadBefore, loadAfter: load1(), ...probe };
  } finally {
    await server?.close();
  }
}

function report(rows: Row[]): void {
  const per = (r: Row, n: number, k: (typeof SPLIT)[number] | "total"): number => (k === "total" ? total(r) : r.cpu[k]) / Math.max(1, n);
  console.log("CPU-seconds per child (all children | per valid child):");
  console.log(table([
    ["model", "W", "children", "valid", ...SPLIT, "total", "total/valid", "children/min", "load avg"],
    ...rows.map((r) => [r.model, String(r.workers), String(r.run.children), String(r.run.valid), ...SPLIT.map((k) => per(r, r.run.children, k).toFixed(2)), per(r, r.run.children, "total").toFixed(2), per(r, r.run.valid, "total").toFixed(2), (r.run.children / (r.run.windowMs / 60_000)).toFixed(1), `${r.loadBefore}→${r.loadAfter}`]),
  ]));
  const phases = [...new Set(rows.flatMap((r) => Object.keys(r.run.phases)))].sort();
  console.log("\ncontainers handed out per child, by phase:");
  console.log(table([["model", "W", ...phases, "all"], ...rows.map((r) => [r.model, String(r.workers), ...phases.map((p) => ((r.run.phases[p] ?? 0) / Math.max(1, r.run.children)).toFixed(2)), (Object.values(r.run.phases).reduce((a, b) => a + b, 0) / Math.max(1, r.run.children)).toFixed(2)])]));
  const served = [...new Set(rows.flatMap((r) => Object.keys(r.byPhase)))].sort();
  console.log("\ncontainer CPU-seconds each, by the phase it served (a lower bound: read every 25 ms while it runs):");
  console.log(table([["model", "W", ...served], ...rows.map((r) => [r.model, String(r.workers), ...served.map((p) => { const x = r.byPhase[p]; return x === undefined ? "—" : `${(x.cpu / x.containers).toFixed(2)} (${x.containers})`; })])]));
  const calls = [...new Set(rows.flatMap((r) => Object.keys(r.run.apiCalls)))].sort();
  console.log("\nDocker API requests per container handed out:");
  console.log(table([["request", ...rows.map((r) => `${r.model} W=${r.workers}`)], ...calls.map((c) => [c, ...rows.map((r) => ((r.run.apiCalls[c] ?? 0) / Math.max(1, Object.values(r.run.phases).reduce((a, b) => a + b, 0))).toFixed(2))])]));
}

async function main(): Promise<void> {
  console.log(`cpu per child: task ${task}, W = ${workers.join(", ")}, models ${models.join(", ")} (slow: ${latencyMs} ms a call), ${waves} waves per W, warm pool ${pool}`);
  const rows: Row[] = [];
  for (const model of models) for (const w of workers) rows.push(await measure(model, w));
  report(rows);
  const notes = [
    "window: from the first child's self-modification to the end of the run (the seed and start-up left out; the closing report included)",
    "harness: the harness process's user+system time; worker: its children's (the check worker)",
    "containers: cpuacct (v1) or cpu.stat (v2) of the run's parent cgroup (EngineOptions.cgroupParent)",
    "daemons: dockerd + containerd, every client's; shims: the run's containers' containerd-shim, sampled every 250 ms",
    "by phase: each container's own cgroup counter, read every 25 ms while it runs (the engine removes it when the container stops, so this is a lower bound), by the phase the container served",
  ];
  const file = await saveResults("cpu", { task, waves, latencyMs, warmPool: pool, notes, rows });
  console.log(`\n${notes.join("\n")}\nresults: ${file}`);
}

await main();
