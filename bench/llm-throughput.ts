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
import { readRun } from "../harness/src/archive/index.js";
import { DEFAULT_TASK } from "../harness/src/evolution/index.js";
import { startScriptedOpenAIServer, type RecordedRequest, type ScriptedReply } from "../tests/support/scripted-openai-server.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { benchArchiveRoot, removeRoot } from "./lib/run-evolution.js";
import { spawnRun } from "./lib/spawn-run.js";
import { percentile, saveResults, table } from "./lib/stats.js";

checkArgs("npx tsx bench/llm-throughput.ts [--latency-ms 2000] [--workers 1,4,8,16] [--waves 3] [--task email-validation]");

const latencyMs = argInt("latency-ms", 2_000);
const workers = argValue("workers", "1,4,8,16").split(",").map(Number);
/** Children per W = waves × W (at least 8), so every W runs full waves. */
const waves = argInt("waves", 3);
const task = argValue("task", DEFAULT_TASK);
const SOLVER = `task/${task}.ts`;
const TURNS = 3;
/** Phases whose median wall time per child is printed: where a child's time goes as W grows. */
const PHASES = ["selfModify", "compile", "import", "evaluate", "total"] as const;

/** Median milliseconds per phase over a run's children (the seed left out). */
async function phaseMedians(runDir: string): Promise<Record<(typeof PHASES)[number], number>> {
  const children = (await readRun(runDir)).generations.filter((g) => g.parent !== null);
  const median = (phase: (typeof PHASES)[number]) => percentile(children.map((g) => g.timings[phase] ?? NaN).filter((t) => !Number.isNaN(t)), 50);
  return Object.fromEntries(PHASES.map((p) => [p, median(p)])) as Record<(typeof PHASES)[number], number>;
}

/**
 * A model that works like a small tool-using coder: reads the solver, moves its first numeric
 * knob to a value derived from the generation id (so every child is a new, valid tree), and
 * finishes. The same question gets the same answer.
 */
function model(request: RecordedRequest): ScriptedReply {
  const messages = request.body?.messages ?? [];
  const toolTurns = messages.filter((m) => m.role === "assistant").length;
  const briefing = String(messages[1]?.content ?? "");
  const usage = { promptTokens: 1_500 + 400 * toolTurns, completionTokens: 60, delayMs: latencyMs };
  const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
  if (toolTurns === 0) return { content: "Reading the solver first.", toolCalls: [call("read_file", { path: SOLVER, startLine: 1, endLine: 40 })], ...usage };
  if (toolTurns === 1) {
    const knob = /^ {2}(\w+): (\d+), \/\/ evolve:range (\d+)\.\.(\d+) int$/m.exec(briefing);
    const generation = Number(/writing generation g(\d+)/.exec(briefing)?.[1] ?? 0);
    if (knob === null) return { content: null, toolCalls: [call("finish", { summary: "no knob found" })], ...usage };
    const [line, name, value, low, high] = knob as unknown as [string, string, string, string, string];
    const next = Number(low) + ((generation * 37 + Number(value)) % (Number(high) - Number(low) + 1));
    return { content: `Trying ${name} = ${next}.`, toolCalls: [call("replace_in_file", { path: SOLVER, search: line, replace: line.replace(`: ${value},`, `: ${next},`) })], ...usage };
  }
  return { content: null, toolCalls: [call("finish", { summary: "moved one knob" })], ...usage };
}

async function main(): Promise<void> {
  console.log(`llm throughput: task ${task}, ${latencyMs} ms per model call, ${TURNS} calls per child, W = ${workers.join(", ")}, ${waves} waves per W`);
  const rows = [];
  for (const w of workers) {
    const server = await startScriptedOpenAIServer(model);
    const out = await benchArchiveRoot("llm-throughput");
    const generations = Math.max(8, waves * w);
    const loadBefore = load1();
    try {
      const r = await spawnRun({ task, generations, workers: w, seed: 1, out, runId: "llm", llm: { baseURL: server.baseURL, model: "scripted-model" } });
      const calls = server.chatRequests().length;
      const callsPerChild = calls / Math.max(1, r.children);
      const idealMinutes = (Math.ceil(r.children / w) * TURNS * latencyMs) / 60_000;
      const ideal = r.children / idealMinutes;
      const phases = await phaseMedians(join(out, "llm"));
      rows.push({ workers: w, loadBefore, loadAfter: load1(), calls, callsPerChild, ideal, ofIdeal: r.perMinute / ideal, phases, ...r, bestVisibleCurve: undefined });
    } finally {
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
  const file = await saveResults("llm-throughput", { task, latencyMs, turns: TURNS, waves, rows });
  console.log(`results: ${file}`);
}

await main();
