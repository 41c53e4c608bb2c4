/**
 * One evolution run for bench/cpu.ts, in its own process: the harness as `evolve run` runs
 * it (tsx, bin/evolve.js's node flags, the default warm pool), its containers under one
 * cgroup (EngineOptions.cgroupParent) so the parent can read their CPU. It prints JSON lines:
 *   {"type":"container","id"[,"phase"]}  each container created, and each handed to the harness
 *                              with the phase it serves (the parent finds its shim and its cgroup);
 *   {"type":"window", ...}     as the first child's self-modification starts: the CPU so far;
 *   {"type":"result", ...}     at the end: CPU, children, containers per phase, Docker API calls.
 * Between "window" and "result" only children run (the seed is evaluated before), so the
 * difference is the children's cost (and the run's closing report, once).
 *
 *   node <bin/evolve.js's flags> --import tsx/esm bench/lib/cpu-run.ts <json options>
 */
import http from "node:http";
import { DEFAULT_WARM_POOL } from "../../harness/src/evolution/index.js";
import { connectEngines, LOCAL_ENGINE, type SandboxEngine } from "../../sandbox/src/index.js";
import { treeCpu } from "./proc-cpu.js";
import { abortOnSignal, reportInterrupted } from "./interrupt.js";
import { removeRoot, runEvolution, type BenchRunOptions } from "./run-evolution.js";

export interface CpuRunOptions extends BenchRunOptions {
  warmPool?: number;
  cgroupParent: string;
}

/** The harness process and its children (the check worker), CPU seconds. */
export interface HarnessCpu {
  harness: number;
  worker: number;
}

export interface CpuRunWindow {
  type: "window";
  cpu: HarnessCpu;
}

export interface CpuRunResult {
  type: "result";
  wallMs: number;
  /** Wall time from the window's start to the end. */
  windowMs: number;
  /** CPU at the end (the "window" line has it at the start). */
  cpu: HarnessCpu;
  children: number;
  valid: number;
  duplicates: number;
  /** Containers handed to the harness in the window, by phase label (drafts' included). */
  phases: Record<string, number>;
  /** Docker API requests in the window, by method and path with ids left out. */
  apiCalls: Record<string, number>;
  problems: string[];
}

function emit(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function harnessCpu(): HarnessCpu {
  const tree = treeCpu("self");
  return { harness: tree.self, worker: tree.descendants };
}

const options = JSON.parse(process.argv[2] ?? "{}") as CpuRunOptions;
let windowOpen = false;
const phases: Record<string, number> = {};
const apiCalls: Record<string, number> = {};
let windowStarted = 0;

// dockerode's requests, counted where they are made. Node's "http.client.request.start"
// channel does not see the hijacked attach request, so this wraps http.request in this
// benchmark process (docker-modem looks it up at each call).
const request = http.request;
(http as { request: unknown }).request = function (this: unknown, ...args: unknown[]) {
  const o = args[0] as { method?: string; path?: string } | undefined;
  if (windowOpen && o !== undefined && typeof o === "object" && typeof o.path === "string") {
    const path = o.path.split("?")[0]!.replace(/[0-9a-f]{12,}/g, ":id").replace(/^\/v[\d.]+/, "");
    const key = `${o.method ?? "GET"} ${path}`;
    apiCalls[key] = (apiCalls[key] ?? 0) + 1;
  }
  return (request as (...a: unknown[]) => unknown).apply(this, args);
};

function openWindow(): void {
  if (windowOpen) return;
  windowOpen = true;
  windowStarted = performance.now();
  const line: CpuRunWindow = { type: "window", cpu: harnessCpu() };
  emit(line);
}

/** `engine`, counting what it hands out by phase and naming each container for the parent. */
function countingByPhase(engine: SandboxEngine): SandboxEngine {
  const count = (phase: string | undefined): void => {
    if (phase === "self-modify") openWindow();
    if (windowOpen) phases[phase ?? "other"] = (phases[phase ?? "other"] ?? 0) + 1;
  };
  return {
    get endpoint() {
      return engine.endpoint;
    },
    info: () => engine.info(),
    ensureRuntimeImage: (o) => engine.ensureRuntimeImage(o),
    async createSandbox(spec) {
      count(spec.labels.phase);
      const created = await engine.createSandbox(spec);
      emit({ type: "container", id: created.id });
      return created;
    },
    async startSandbox(spec, o) {
      count(spec.labels.phase);
      const running = await engine.startSandbox(spec, o);
      // A pooled container was created as "pool": the phase it serves is known only here.
      emit({ type: "container", id: running.id, phase: spec.labels.phase ?? "other" });
      return running;
    },
    close: () => engine.close(),
    sweep: (o) => engine.sweep(o),
    countManaged: (session) => engine.countManaged(session),
    engines: () => engine.engines(),
    watch: (listener) => engine.watch(listener),
  };
}

const engine = await connectEngines(LOCAL_ENGINE, { warmPool: options.warmPool ?? DEFAULT_WARM_POOL, cgroupParent: options.cgroupParent });
const stop = new AbortController();
const interrupted = abortOnSignal(stop);
try {
  const run = await runEvolution(countingByPhase(engine), options, stop.signal);
  const children = run.generations.filter((g) => g.parent !== null);
  const result: CpuRunResult = {
    type: "result",
    wallMs: run.wallMs,
    windowMs: performance.now() - windowStarted,
    cpu: harnessCpu(),
    children: children.length,
    valid: children.filter((g) => g.status.kind === "valid").length,
    duplicates: children.filter((g) => g.status.kind === "duplicate").length,
    phases,
    apiCalls,
    problems: run.problems,
  };
  if (options.out === undefined) await removeRoot(run.root);
  const signal = interrupted();
  if (signal !== null) reportInterrupted(signal);
  else emit(result);
} finally {
  await engine.close();
}
