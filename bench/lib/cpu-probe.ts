/**
 * The parent's side of one bench/cpu.ts run: it starts bench/lib/cpu-run.ts, and between the
 * child's "window" and "result" lines reads the CPU of the run's containers (their parent
 * cgroup), of the engine's daemons (dockerd, containerd) and of the shims of the run's
 * containers (sampled every 250 ms: the last moments of a shim that exits between two
 * samples are not seen). The daemons serve every client of the engine: on a shared machine
 * their figure includes other people's containers.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { benchCgroupName, cgroupContainers, cgroupCpuSeconds, containerCpuSeconds, removeCgroup } from "./cgroup-cpu.js";
import type { CpuRunOptions, CpuRunResult, CpuRunWindow } from "./cpu-run.js";
import { harnessNode } from "./harness-node.js";
import { engineProcesses } from "./proc-cpu.js";

const REPO = resolve(import.meta.dirname, "../..");
const SAMPLE_MS = 250;
/** How often each container's own counter is read: what it spends after the last read is not seen. */
const CONTAINER_SAMPLE_MS = 25;

/** CPU seconds of one run's children (all of them, between the window's two ends). */
export interface CpuSplit {
  harness: number;
  worker: number;
  containers: number;
  daemons: number;
  shims: number;
}

/** Containers of one phase in the window, and their CPU as last read (a lower bound: see CONTAINER_SAMPLE_MS). */
export interface PhaseCpu {
  containers: number;
  cpu: number;
}

export interface CpuProbe {
  run: CpuRunResult;
  cpu: CpuSplit;
  /** By the phase each container served (pooled ones included). */
  byPhase: Record<string, PhaseCpu>;
}

/** Each container's CPU as last read, by its phase: a container's cgroup goes when it stops. */
class PhaseLedger {
  private readonly seen = new Map<string, { phase: string; cpu: number }>();
  private live = new Set<string>();

  add(id: string, phase: string): void {
    this.seen.set(id, { phase, cpu: 0 });
    this.live.add(id);
  }

  sample(cgroup: string): void {
    for (const id of this.live) {
      const cpu = containerCpuSeconds(cgroup, id);
      if (cpu === null) this.live.delete(id);
      else this.seen.get(id)!.cpu = cpu;
    }
  }

  byPhase(): Record<string, PhaseCpu> {
    const out: Record<string, PhaseCpu> = {};
    for (const { phase, cpu } of this.seen.values()) {
      const p = (out[phase] ??= { containers: 0, cpu: 0 });
      p.containers++;
      p.cpu += cpu;
    }
    return out;
  }
}

/** Engine CPU now: the daemons' sum, and each shim by pid. */
function engineNow(): { daemons: number; shims: Map<number, { id: string | null; cpu: number }> } {
  let daemons = 0;
  const shims = new Map<number, { id: string | null; cpu: number }>();
  for (const p of engineProcesses()) {
    if (p.kind === "shim") shims.set(p.pid, { id: p.containerId, cpu: p.cpu });
    else daemons += p.cpu;
  }
  return { daemons, shims };
}

/** Follows the run's shims between the window's ends: per pid, CPU at first sight in the window (0 if born in it) and last seen. */
class ShimLedger {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, { id: string | null; cpu: number }>();
  constructor(private readonly before: Map<number, { id: string | null; cpu: number }>) {}

  sample(shims: Map<number, { id: string | null; cpu: number }>): void {
    for (const [pid, s] of shims) {
      if (!this.first.has(pid)) this.first.set(pid, this.before.get(pid)?.cpu ?? 0);
      this.last.set(pid, s);
    }
  }

  /** CPU of the shims of `ours` in the window. */
  total(ours: ReadonlySet<string>): number {
    let sum = 0;
    for (const [pid, s] of this.last) if (s.id !== null && ours.has(s.id)) sum += s.cpu - (this.first.get(pid) ?? 0);
    return sum;
  }
}

/** Runs one evolution under the probe; its containers go under a cgroup of this process, removed after. */
export function probeRun(options: Omit<CpuRunOptions, "cgroupParent">, tag: string): Promise<CpuProbe> {
  const cgroup = `${benchCgroupName()}-${tag}`;
  const [command, args] = harnessNode(resolve(REPO, "bench/lib/cpu-run.ts"), JSON.stringify({ ...options, cgroupParent: cgroup }));
  const ours = new Set<string>();
  let window: { line: CpuRunWindow; containers: number; daemons: number; shims: ShimLedger } | null = null;
  let result: CpuRunResult | null = null;
  let end: CpuSplit | null = null;
  const phases = new PhaseLedger();
  const containerTimer = setInterval(() => phases.sample(cgroup), CONTAINER_SAMPLE_MS);
  const timer = setInterval(() => {
    for (const id of cgroupContainers(cgroup)) ours.add(id);
    if (window !== null && result === null) window.shims.sample(engineNow().shims);
  }, SAMPLE_MS);
  const onLine = (text: string): void => {
    if (!text.startsWith("{")) return;
    const line = JSON.parse(text) as { type: string; id?: string; phase?: string };
    if (line.type === "container" && line.id !== undefined) ours.add(line.id);
    if (line.type === "container" && line.id !== undefined && line.phase !== undefined && window !== null && result === null) phases.add(line.id, line.phase);
    if (line.type === "window") {
      const now = engineNow();
      window = { line: line as CpuRunWindow, containers: cgroupCpuSeconds(cgroup), daemons: now.daemons, shims: new ShimLedger(now.shims) };
    }
    if (line.type === "result" && window !== null) {
      const now = engineNow();
      window.shims.sample(now.shims);
      result = line as CpuRunResult;
      end = {
        harness: result.cpu.harness - window.line.cpu.harness,
        worker: result.cpu.worker - window.line.cpu.worker,
        containers: cgroupCpuSeconds(cgroup) - window.containers,
        daemons: now.daemons - window.daemons,
        shims: window.shims.total(ours),
      };
    }
  };
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let pending = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      const lines = (pending + d).split("\n");
      pending = lines.pop() ?? "";
      for (const l of lines) onLine(l.trim());
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err = (err + d).slice(-4000)));
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(timer);
      clearInterval(containerTimer);
      onLine(pending.trim());
      removeCgroup(cgroup);
      if (code !== 0 || result === null || end === null) fail(new Error(`cpu-run exited ${code}${result === null ? " without a result" : ""}: ${err}`));
      else done({ run: result, cpu: end, byPhase: phases.byPhase() });
    });
  });
}
