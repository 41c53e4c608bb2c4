/**
 * The real CLI as a child process (`node bin/evolve.js ...`, no LLM in its environment), for
 * tests that stop it with signals; and a poll for the moment to do so.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

export interface EvolveProcess {
  child: ChildProcess;
  /** The exit code, or null when a signal ended it. */
  exit: Promise<number | null>;
  output(): string;
}

/** This process's environment without an LLM endpoint or key: the CLI runs offline. */
export function offlineEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env["OPENAI_API_KEY"];
  delete env["OPENAI_BASE_URL"];
  return env;
}

/** Starts `evolve ARGS` in the checkout; `started` collects it so afterAll can kill what is left. */
export function spawnEvolve(args: readonly string[], started: ChildProcess[]): EvolveProcess {
  const child = spawn(process.execPath, [join(ROOT, "bin/evolve.js"), ...args], { cwd: ROOT, env: offlineEnv(), stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let text = "";
  child.stdout?.on("data", (d: Buffer) => (text += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (text += d.toString()));
  const exit = new Promise<number | null>((r) => child.on("exit", (code, signal) => r(signal === null ? code : null)));
  return { child, exit, output: () => text };
}

/**
 * Polls until `ready` holds (or the process exits, or time runs out). Given the process, not
 * only its exit, a failure quotes what it printed: why it ended is the first thing to know.
 */
export async function waitFor(ready: () => Promise<boolean>, watched: Promise<unknown> | EvolveProcess, ms = 120_000): Promise<void> {
  const exit = watched instanceof Promise ? watched : watched.exit;
  const printed = (): string => (watched instanceof Promise ? "" : `; it printed:\n${watched.output().slice(-4_000)}`);
  let exited = false;
  void exit.then(() => (exited = true));
  const until = Date.now() + ms;
  while (!(await ready().catch(() => false))) {
    if (exited) throw new Error(`the process exited (${String(await exit)}) before the awaited moment${printed()}`);
    if (Date.now() > until) throw new Error(`timed out waiting${printed()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The one run folder under an archive root `out`, or "" while there is none. Names that begin
 * with "." are not runs: a starting run probes that the root is writable with a file of its own
 * there for a moment (archive/writable-folder.ts), and a poll that took it for the run waited
 * for events that never came (a CI failure of kill-resume.test.ts).
 */
export async function theRunDir(out: string): Promise<string> {
  const runs = (await readdir(out)).filter((name) => !name.startsWith("."));
  return runs.length === 1 ? join(out, runs[0]!) : "";
}

/** Kills every started process that is still running. */
export function killAll(started: readonly ChildProcess[]): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
}
