/**
 * What "the host is unaffected" means in the security suite, checked after every case:
 * a sentinel folder outside every destination keeps its exact contents, no host process
 * carries the case's marker, the host can still start a process quickly, and the engine
 * holds no container or volume of the case's session.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxEngine } from "../../../sandbox/src/index.js";

/** A folder of files an escaping agent would love to change. */
export interface Sentinel {
  readonly dir: string;
  readonly digest: string;
}

async function digestDir(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const walk = async (path: string, rel: string): Promise<void> => {
    const entries = (await readdir(path, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = join(path, entry.name);
      const info = await stat(full);
      hash.update(`${rel}/${entry.name}\0${entry.isDirectory() ? "d" : "f"}\0${info.mode}\0`);
      if (entry.isDirectory()) await walk(full, `${rel}/${entry.name}`);
      else hash.update(await readFile(full));
    }
  };
  await walk(dir, "");
  return hash.digest("hex");
}

export async function createSentinel(): Promise<Sentinel> {
  const dir = await mkdtemp(join(tmpdir(), "evolve-sec-sentinel-"));
  await mkdir(join(dir, "etc"), { recursive: true });
  await writeFile(join(dir, "etc", "passwd"), "root:x:0:0:root:/root:/bin/bash\n");
  await writeFile(join(dir, "victim.txt"), "untouched\n");
  await writeFile(join(dir, "secrets.env"), "OPENAI_API_KEY=sk-sentinel-not-a-key\n");
  return { dir, digest: await digestDir(dir) };
}

export async function sentinelIntact(sentinel: Sentinel): Promise<boolean> {
  return (await digestDir(sentinel.dir)) === sentinel.digest;
}

export async function removeSentinel(sentinel: Sentinel): Promise<void> {
  await rm(sentinel.dir, { recursive: true, force: true });
}

/** Host processes whose command line contains `marker` (container processes show under runc). */
export function hostProcessesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "latin1").includes(marker)) pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Milliseconds the host takes to start and reap a trivial process. */
export function hostSpawnMs(): number {
  const started = performance.now();
  const result = spawnSync("true", { timeout: 10_000 });
  if (result.status !== 0) return Number.POSITIVE_INFINITY;
  return performance.now() - started;
}

export interface HostCheck {
  sentinelIntact: boolean;
  leftovers: { containers: number; volumes: number };
  markerProcesses: number[];
  spawnMs: number;
}

/** Everything "the host is unaffected" covers, for one case's session and marker. */
export async function checkHost(engine: SandboxEngine, session: string, sentinel: Sentinel, marker: string): Promise<HostCheck> {
  return {
    sentinelIntact: await sentinelIntact(sentinel),
    leftovers: await engine.countManaged(session),
    markerProcesses: hostProcessesWith(marker),
    spawnMs: hostSpawnMs(),
  };
}
