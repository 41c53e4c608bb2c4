/**
 * CPU-seconds of one run, measured from the outside for bench/cost.ts: the harness's own
 * process tree (this process, its check workers and other children, from /proc) plus the
 * containers it started (each container's cgroup CPU counter, polled while it lives, since the
 * engine deletes the cgroup when the container exits). Only this run's containers are counted,
 * so other work on a shared engine does not leak in; the last poll before a container exits
 * can miss up to one poll interval of its CPU, so the container figure is a slight lower bound.
 * Linux only; elsewhere (or on a remote engine) the container part is null.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { RunningSandbox, SandboxEngine } from "../../sandbox/src/index.js";

const POLL_MS = 50;
const TICKS_PER_SECOND = 100;

/** Where a container's CPU counter lives (nanoseconds, or cgroup v2's microseconds in cpu.stat). */
function counterPaths(id: string): { path: string; unit: "ns" | "v2" }[] {
  return [
    { path: `/sys/fs/cgroup/cpuacct/docker/${id}/cpuacct.usage`, unit: "ns" },
    { path: `/sys/fs/cgroup/cpuacct/system.slice/docker-${id}.scope/cpuacct.usage`, unit: "ns" },
    { path: `/sys/fs/cgroup/system.slice/docker-${id}.scope/cpu.stat`, unit: "v2" },
    { path: `/sys/fs/cgroup/docker/${id}/cpu.stat`, unit: "v2" },
  ];
}

/** A container's CPU seconds so far, or null when its counter cannot be read (gone, or not here). */
function containerSeconds(id: string): number | null {
  for (const { path, unit } of counterPaths(id)) {
    try {
      const text = readFileSync(path, "utf8");
      if (unit === "ns") return Number(text.trim()) / 1e9;
      const usec = /usage_usec (\d+)/.exec(text)?.[1];
      if (usec !== undefined) return Number(usec) / 1e6;
    } catch {
      // Not this layout, or the container is gone.
    }
  }
  return null;
}

/** CPU seconds of `root` and every process below it (live ones, and the dead ones it waited for). */
function processTreeSeconds(root: number): number {
  const stats = new Map<number, { ppid: number; own: number; waited: number }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after the command (which may hold spaces) start past the last ")".
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(name), { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), waited: Number(f[13]) + Number(f[14]) });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  let ticks = 0;
  const below = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = stats.get(p)?.ppid ?? 0, hops++) if (p === root) return true;
    return false;
  };
  for (const [pid, s] of stats) if (below(pid)) ticks += s.own + (pid === root ? s.waited : 0);
  return ticks / TICKS_PER_SECOND;
}

export interface CpuMeter {
  /** The engine to run through: sandboxes started through it are metered. */
  engine: SandboxEngine;
  /** Harness and container CPU seconds so far (containers: null when no counter was readable). */
  read(): { harness: number; containers: number | null };
  stop(): void;
}

/** Meters `inner` (a counting engine's, say) and this process tree. */
export function cpuMeter(inner: SandboxEngine): CpuMeter {
  const live = new Map<string, number>();
  let finished = 0;
  let readable = false;
  const poll = (): void => {
    for (const [id, last] of live) {
      const now = containerSeconds(id);
      if (now === null) {
        finished += last;
        live.delete(id);
      } else {
        readable = true;
        live.set(id, now);
      }
    }
  };
  const timer = setInterval(poll, POLL_MS);
  const watch = (sandbox: RunningSandbox): RunningSandbox => {
    live.set(sandbox.id, containerSeconds(sandbox.id) ?? 0);
    return sandbox;
  };
  const engine: SandboxEngine = {
    get endpoint() {
      return inner.endpoint;
    },
    info: () => inner.info(),
    ensureRuntimeImage: (options) => inner.ensureRuntimeImage(options),
    createSandbox: (spec) => inner.createSandbox(spec),
    startSandbox: async (spec, options) => watch(await inner.startSandbox(spec, options)),
    close: () => inner.close(),
    sweep: (options) => inner.sweep(options),
    countManaged: (session) => inner.countManaged(session),
    engines: () => inner.engines(),
    watch: (listener) => inner.watch(listener),
  };
  return {
    engine,
    read() {
      poll();
      const containers = finished + [...live.values()].reduce((a, b) => a + b, 0);
      return { harness: existsSync("/proc/self/stat") ? processTreeSeconds(process.pid) : process.cpuUsage().user / 1e6, containers: readable || containers > 0 ? containers : null };
    },
    stop: () => clearInterval(timer),
  };
}
