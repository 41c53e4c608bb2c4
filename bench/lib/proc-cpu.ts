/**
 * CPU time of processes from /proc (Linux): a process's own user + system time and that of
 * the children it has waited for, its live children, and the processes of the Docker engine
 * (dockerd, containerd, one containerd-shim per container). Figures are seconds.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticks: number | null = null;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ). */
function clockTicks(): number {
  if (ticks === null) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

export interface ProcCpu {
  /** utime + stime, seconds. */
  own: number;
  /** cutime + cstime: children this process has waited for, seconds. */
  reaped: number;
  ppid: number;
  comm: string;
}

/** /proc/<pid>/stat, or null when the process is gone. */
export function procCpu(pid: number | "self"): ProcCpu | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name is in parentheses and may hold spaces: the fields start after the last ")".
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  const fields = text.slice(close + 2).split(" ");
  const at = (field: number): number => Number(fields[field - 3]);
  const hz = clockTicks();
  return { own: (at(14) + at(15)) / hz, reaped: (at(16) + at(17)) / hz, ppid: at(4), comm };
}

/** The live children of `pid` (every thread's), by /proc/<pid>/task/<tid>/children. */
export function childrenOf(pid: number | "self"): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (text !== "") out.push(...text.split(" ").map(Number));
    }
  } catch {
    // Gone, or no permission: no children seen.
  }
  return out;
}

/** CPU of `pid` and every live descendant (own + reaped), seconds. */
export function treeCpu(pid: number | "self"): { self: number; descendants: number } {
  const me = procCpu(pid);
  let descendants = me?.reaped ?? 0;
  const queue = childrenOf(pid);
  while (queue.length > 0) {
    const child = queue.pop()!;
    const cpu = procCpu(child);
    if (cpu === null) continue;
    descendants += cpu.own + cpu.reaped;
    queue.push(...childrenOf(child));
  }
  return { self: me?.own ?? 0, descendants };
}

/** An engine process: the daemons, or the shim of one container (with that container's id). */
export interface EngineProcess {
  pid: number;
  kind: "dockerd" | "containerd" | "shim";
  containerId: string | null;
  /** own + reaped (a shim waits for the runc calls it makes), seconds. */
  cpu: number;
}

const ENGINE_COMMS: Record<string, EngineProcess["kind"]> = { dockerd: "dockerd", containerd: "containerd", "containerd-shim": "shim" };

/** Every dockerd, containerd and containerd-shim process now. */
export function engineProcesses(): EngineProcess[] {
  const out: EngineProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const cpu = procCpu(Number(name));
    const kind = cpu === null ? undefined : ENGINE_COMMS[cpu.comm];
    if (cpu === null || kind === undefined) continue;
    let containerId: string | null = null;
    if (kind === "shim") {
      try {
        const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
        containerId = argv[argv.indexOf("-id") + 1] ?? null;
      } catch {
        continue;
      }
    }
    out.push({ pid: Number(name), kind, containerId, cpu: cpu.own + cpu.reaped });
  }
  return out;
}
