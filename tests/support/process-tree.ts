/**
 * What a process leaves behind: its descendants (read from /proc while it runs: a check
 * worker, a judge worker) and the containers and volumes labelled with its session (a
 * session id is `host.pid.nonce`, sandbox/src/docker-engine.ts). For tests that assert a
 * command ends and takes everything it started with it.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** Parent pid of every process now: pid → ppid. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields after its last ")".
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      map.set(Number(name), Number(fields[1]));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return map;
}

/** The pids descended from `root` right now. */
export function descendantsOf(root: number): number[] {
  const map = parents();
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const [child, parent] of map) {
      if (parent === pid && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** True while `pid` exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Collects every descendant `root` ever has while polled; `stop()` returns them all. */
export function watchDescendants(root: number, everyMs = 100): { seen: Set<number>; stop(): Set<number> } {
  const seen = new Set<number>();
  const look = (): void => {
    for (const pid of descendantsOf(root)) seen.add(pid);
  };
  look();
  const timer = setInterval(look, everyMs);
  return {
    seen,
    stop() {
      clearInterval(timer);
      return seen;
    },
  };
}

/** Waits up to `ms` for every pid of `pids` to be gone; returns those still alive. */
export async function survivors(pids: Iterable<number>, ms = 5_000): Promise<number[]> {
  const until = Date.now() + ms;
  let alive = [...pids].filter(isAlive);
  while (alive.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** Containers and volumes labelled with a session of process `pid` on this host. */
export async function sessionLeftovers(pid: number): Promise<{ containers: string[]; volumes: string[] }> {
  const prefix = `${hostname()}.${pid}.`;
  const list = async (args: string[], name: string): Promise<string[]> => {
    const { stdout } = await exec("docker", [...args, "--filter", "label=dev.evolve.session", "--format", `{{.Label "dev.evolve.session"}} {{.${name}}}`]);
    return stdout.split("\n").filter((line) => line.startsWith(prefix)).map((line) => line.slice(line.indexOf(" ") + 1));
  };
  return { containers: await list(["ps", "-a"], "Names"), volumes: await list(["volume", "ls"], "Name") };
}
