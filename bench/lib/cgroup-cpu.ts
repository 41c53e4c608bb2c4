/**
 * The CPU of every container of a benchmark run, by cgroup accounting: the run's engine
 * puts its containers under one parent cgroup (EngineOptions.cgroupParent), whose counter
 * adds up its children's CPU and keeps it when a container is removed. cgroup v1 (cpuacct)
 * and v2 (cpu.stat) with the cgroupfs driver; with the systemd driver the parent is a slice.
 */
import { readdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";

const ROOT = "/sys/fs/cgroup";

function isV2(): boolean {
  try {
    return readFileSync(join(ROOT, "cgroup.controllers"), "utf8").length > 0;
  } catch {
    return false;
  }
}

/** A parent cgroup name for this process's containers. */
export function benchCgroupName(): string {
  return `evolve-bench-${process.pid}`;
}

/** CPU seconds of the cgroup at `path` (relative to the hierarchy) so far, or null when it is not there. */
function cpuSecondsAt(path: string): number | null {
  try {
    if (isV2()) {
      const line = readFileSync(join(ROOT, path, "cpu.stat"), "utf8").split("\n").find((l) => l.startsWith("usage_usec "));
      return line === undefined ? null : Number(line.split(" ")[1]) / 1e6;
    }
    return Number(readFileSync(join(ROOT, "cpuacct", path, "cpuacct.usage"), "utf8").trim()) / 1e9;
  } catch {
    return null;
  }
}

/** CPU seconds charged to the cgroup `name` and everything under it, ever (0 before it exists). */
export function cgroupCpuSeconds(name: string): number {
  return cpuSecondsAt(name) ?? 0;
}

/**
 * CPU seconds of one container of the cgroup `name` so far, or null once it is gone: the
 * engine removes a container's own cgroup when it stops, so a poller reads a lower bound.
 */
export function containerCpuSeconds(name: string, id: string): number | null {
  return cpuSecondsAt(join(name, id));
}

/** The ids of the containers in the cgroup now (its sub-cgroups). */
export function cgroupContainers(name: string): string[] {
  try {
    const dir = isV2() ? join(ROOT, name) : join(ROOT, "cpuacct", name);
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

/** Removes the (empty) cgroup Docker made for the run, under every controller. */
export function removeCgroup(name: string): void {
  const dirs = isV2() ? [join(ROOT, name)] : readdirSync(ROOT).map((controller) => join(ROOT, controller, name));
  for (const dir of dirs) {
    try {
      rmdirSync(dir);
    } catch {
      // Not there under this controller, or still in use: left for the machine's owner.
    }
  }
}
