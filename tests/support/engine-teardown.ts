/**
 * Tearing down a test engine whatever state it is in (running, SIGKILLed with its containers
 * still alive, half started), and sweeping what a test process that died left behind. Each
 * fixture records what it made in STATE_DIR before making it; a record whose owner process
 * is dead is torn down by the next fixture that starts. Only what a record names, or what
 * carries the fixture's name prefix, is touched.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";

export const STATE_DIR = "/run/evolve-test-engines";
/** Network namespaces, veths and cgroup parents of test engines start with this. */
export const NAME_PREFIX = "evte";

export interface EngineRecord {
  dir: string;
  netns: string;
  vethHost: string;
  cgroupParent: string;
}

export interface FixtureRecord {
  owner: number;
  dir: string;
  engines: EngineRecord[];
}

function quiet(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { stdio: "ignore", timeout: 20_000 });
  } catch {
    // Already gone.
  }
}

/** Pids whose command line names something under `dir` (the engine's dockerd, containerd, shims). */
export function processesUnder(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1").includes(dir)) pids.push(Number(entry));
    } catch {
      // It ended meanwhile.
    }
  }
  return pids;
}

/** Pids in the cgroups under `parent` (the engine's containers), in every hierarchy. */
function cgroupProcesses(parent: string): number[] {
  const pids = new Set<number>();
  const walk = (dir: string): void => {
    try {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name === "cgroup.procs") for (const line of readFileSync(join(dir, entry.name), "utf8").split("\n")) if (/^\d+$/.test(line)) pids.add(Number(line));
      }
    } catch {
      // Not in this hierarchy.
    }
  };
  for (const hierarchy of readdirSync("/sys/fs/cgroup")) walk(join("/sys/fs/cgroup", hierarchy, parent));
  return [...pids];
}

function removeCgroups(parent: string): void {
  const remove = (dir: string): void => {
    try {
      for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) remove(join(dir, entry.name));
      rmdirSync(dir);
    } catch {
      // Not there, or still busy: harmless.
    }
  };
  for (const hierarchy of readdirSync("/sys/fs/cgroup")) {
    const dir = join("/sys/fs/cgroup", hierarchy, parent);
    if (existsSync(dir)) remove(dir);
  }
}

function kill(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(done: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
}

/**
 * SIGKILLs everything of the engine at once, as a machine that loses power would (dockerd,
 * containerd, shims, containers), then clears what a reboot clears: its mounts and its exec
 * root (on a real host /var/run/docker, a tmpfs). Its data root stays, images included.
 */
export async function crashEngine(engine: EngineRecord, execRoot: string): Promise<void> {
  const pids = [...processesUnder(engine.dir), ...cgroupProcesses(engine.cgroupParent)];
  kill(pids, "SIGKILL");
  await until(() => pids.every((pid) => !alive(pid)), 5_000);
  unmountUnder(engine.dir);
  rmSync(execRoot, { recursive: true, force: true });
}

function unmountUnder(dir: string): void {
  const mounts = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[4] ?? "")
    .filter((mountPoint) => mountPoint === dir || mountPoint.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const mountPoint of mounts) quiet("umount", ["-l", mountPoint]);
}

/** Stops one engine (its dockerd gracefully first), kills what is left, unmounts, removes its namespace, veth, cgroups and folder. */
export async function teardownEngine(engine: EngineRecord, dockerdPid: number | null): Promise<void> {
  if (dockerdPid !== null && alive(dockerdPid)) {
    // A frozen dockerd (SIGSTOP) would only take SIGTERM once thawed.
    kill([dockerdPid], "SIGCONT");
    kill([dockerdPid], "SIGTERM");
    await until(() => !alive(dockerdPid), 15_000);
  }
  for (let round = 0; round < 3; round++) {
    const left = [...processesUnder(engine.dir), ...cgroupProcesses(engine.cgroupParent)];
    if (left.length === 0) break;
    kill(left, "SIGKILL");
    await until(() => left.every((pid) => !alive(pid)), 5_000);
  }
  unmountUnder(engine.dir);
  removeCgroups(engine.cgroupParent);
  quiet("ip", ["netns", "del", engine.netns]);
  quiet("ip", ["link", "del", engine.vethHost]);
  rmSync(engine.dir, { recursive: true, force: true });
}

export async function teardownFixture(record: FixtureRecord, dockerdPids: (number | null)[] = []): Promise<void> {
  await Promise.all(record.engines.map((engine, i) => teardownEngine(engine, dockerdPids[i] ?? null)));
  rmSync(record.dir, { recursive: true, force: true });
}

/** Tears down the fixtures of test processes that died, and namespaces of ours no live fixture owns. */
export async function sweepDeadFixtures(): Promise<void> {
  if (!existsSync(STATE_DIR)) return;
  const live = new Set<string>();
  const liveCgroups = new Set<string>();
  for (const file of readdirSync(STATE_DIR)) {
    let record: FixtureRecord;
    try {
      record = JSON.parse(readFileSync(join(STATE_DIR, file), "utf8")) as FixtureRecord;
    } catch {
      continue;
    }
    if (alive(record.owner)) {
      for (const engine of record.engines) {
        live.add(engine.netns);
        liveCgroups.add(engine.cgroupParent.slice(1));
      }
      continue;
    }
    await teardownFixture(record);
    rmSync(join(STATE_DIR, file), { force: true });
  }
  let namespaces: string[] = [];
  try {
    namespaces = readdirSync("/var/run/netns");
  } catch {
    // None at all.
  }
  for (const netns of namespaces) if (netns.startsWith(`${NAME_PREFIX}-`) && !live.has(netns)) quiet("ip", ["netns", "del", netns]);
  for (const hierarchy of readdirSync("/sys/fs/cgroup")) {
    let parents: string[] = [];
    try {
      parents = readdirSync(join("/sys/fs/cgroup", hierarchy)).filter((name) => name.startsWith(`${NAME_PREFIX}-`) && !liveCgroups.has(name));
    } catch {
      // Not a folder.
    }
    for (const parent of parents) removeCgroups(`/${parent}`);
  }
}
