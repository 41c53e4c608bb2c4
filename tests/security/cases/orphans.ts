/**
 * Orphan cleanup: `evolve run` is SIGKILLed while its meta agent spins in a container;
 * the container and volume outlive it. The next `evolve run` sweeps every labelled
 * container and volume of the dead session at start, and leaves nothing of its own.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { leftoversOfRun } from "../../evolution/run-helpers.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const REPO = new URL("../../../", import.meta.url).pathname;
const HANGING_AGENT = new URL("../fixtures/hanging-agent/", import.meta.url).pathname;
const HONEST_AGENT = new URL("../fixtures/hostile-agent/", import.meta.url).pathname;

/** The environment of a child harness: offline (no LLM settings of the test process). */
function childEnv(): NodeJS.ProcessEnv {
  // The tests' own store of proven files stays: without it the child would write to the user's.
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OPENAI_") && (!k.startsWith("EVOLVE") || k === "EVOLVE_CACHE_DIR")));
}

function evolve(args: string[]): ChildProcess {
  return spawn(process.execPath, [join(REPO, "bin/evolve.js"), ...args], { cwd: REPO, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
}

function phasesOfRun(docker: string[], runId: string): string[] {
  const out = execFileSync("docker", [...docker, "ps", "-a", "--filter", `label=dev.evolve.run=${runId}`, "--format", '{{.Label "dev.evolve.phase"}}'], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.trim() !== "");
}

/**
 * True when one of the run's containers is running the agent's improve(): its runner said
 * so on stdout. Labels cannot tell: a container from the warm pool is labelled "pool"
 * whatever it is handed out for.
 */
function improveRunning(docker: string[], runId: string): boolean {
  const ids = execFileSync("docker", [...docker, "ps", "-q", "--filter", `label=dev.evolve.run=${runId}`], { encoding: "utf8" }).split("\n").filter((l) => l.trim() !== "");
  return ids.some((id) => /"type":"ready","exports":\{"improve"/.test(logsOf(docker, id)));
}

/** A container's stdout so far; "" when it is gone (the harness removes containers as it goes). */
function logsOf(docker: string[], id: string): string {
  try {
    return execFileSync("docker", [...docker, "logs", id], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return "";
  }
}

async function until<T>(what: string, timeoutMs: number, probe: () => T | null): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

export async function orphanSweep(c: CaseContext): Promise<CaseVerdict> {
  const out = await mkdtemp(join(tmpdir(), "evolve-sec-orphans-"));
  // On a remote engine: the CLI names it, and the docker CLI looks there.
  const docker = c.env.remote?.dockerArgs ?? [];
  const common = ["--task", "email-validation", "--workers", "1", "--out", out, "--runtime", c.runtime, ...(c.env.remote?.evolveArgs ?? [])];
  const first = evolve(["run", ...common, "--agent", HANGING_AGENT, "--generations", "2", "--improve-timeout", "600"]);
  let log = "";
  first.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  first.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  try {
    // The run id is printed at start: "run <id>: task ...".
    const actualId = await until("the run to start", 120_000, () => /^run (\S+):/m.exec(log)?.[1] ?? null);
    await until("a self-modification container running improve()", 180_000, () => (improveRunning(docker, actualId) ? true : null));
    const phases = phasesOfRun(docker, actualId);
    first.kill("SIGKILL");
    await exited(first);
    await new Promise((r) => setTimeout(r, 1_000));
    const orphaned = leftoversOfRun(actualId, docker);
    expect(orphaned.containers, `orphans after SIGKILL (phases ${phases.join(",")})`).toBeGreaterThanOrEqual(1);
    expect(orphaned.volumes).toBeGreaterThanOrEqual(1);

    const killedAt = Date.now();
    const next = evolve(["run", ...common, "--agent", HONEST_AGENT, "--generations", "0"]);
    let nextLog = "";
    next.stdout?.on("data", (d: Buffer) => (nextLog += d.toString()));
    next.stderr?.on("data", (d: Buffer) => (nextLog += d.toString()));
    let sweptAt: number | null = null;
    const watch = setInterval(() => {
      const left = leftoversOfRun(actualId, docker);
      if (sweptAt === null && left.containers + left.volumes === 0) sweptAt = Date.now();
    }, 250);
    const code = await exited(next);
    clearInterval(watch);
    expect(code, nextLog.slice(-2000)).toBe(0);
    expect(nextLog).toMatch(/swept \d+ containers and \d+ volumes left by dead sessions/);
    expect(leftoversOfRun(actualId, docker)).toEqual({ containers: 0, volumes: 0 });
    const nextRun = /^run (\S+):/m.exec(nextLog)?.[1];
    expect(nextRun).toBeDefined();
    expect(leftoversOfRun(nextRun!, docker)).toEqual({ containers: 0, volumes: 0 });
    return {
      outcome: `SIGKILL left ${orphaned.containers} container(s) + ${orphaned.volumes} volume(s); the next \`evolve run\` swept them at start`,
      containMs: sweptAt === null ? null : sweptAt - killedAt,
    };
  } finally {
    if (first.exitCode === null && first.signalCode === null) first.kill("SIGKILL");
    await rm(out, { recursive: true, force: true });
  }
}

/**
 * The sweep must recognise this host's dead sessions whatever the host is called. Session
 * ids are `<hostname>.<pid>.<random>`; a hostname with dots ("build-01.example.com",
 * "laptop.local") must not hide them. Needs root for a private UTS namespace.
 */
export async function dottedHostnameSweep(_c: CaseContext): Promise<CaseVerdict> {
  const script = new URL("../support/dotted-host-sweep.ts", import.meta.url).pathname;
  const tsx = join(REPO, "node_modules/.bin/tsx");
  expect(process.getuid?.(), "this case needs root (unshare --uts) to give the harness a dotted hostname").toBe(0);
  const started = Date.now();
  const out = execFileSync("unshare", ["--uts", "sh", "-c", `hostname evolve.sec.example && exec "${tsx}" "${script}"`], { cwd: REPO, env: childEnv(), encoding: "utf8", timeout: 120_000 });
  const result = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { hostname: string; before: { containers: number }; after: { containers: number; volumes: number } };
  expect(result.hostname).toBe("evolve.sec.example");
  expect(result.before.containers).toBe(1);
  expect(result.after, "a dead session of this host survived the start-up sweep").toEqual({ containers: 0, volumes: 0 });
  return { outcome: `dead session of host ${result.hostname} swept`, containMs: Date.now() - started };
}
