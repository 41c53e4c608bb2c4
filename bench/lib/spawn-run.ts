/** Starts a benchmark's run script (bench/lib/run-once.ts, cost-run.ts) in a child process and parses its result line. */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import type { BenchRunOptions } from "./run-evolution.js";
import { harnessNode } from "./harness-node.js";
import type { RunOnceResult } from "./run-once.js";

const REPO = resolve(import.meta.dirname, "../..");

/** Runs `script` (a path under bench/lib) with `options` as its JSON argument in a fresh process; rejects with its stderr tail when it fails. */
export function spawnScript<T>(script: string, options: unknown): Promise<T> {
  return new Promise((done, fail) => {
    const [command, args] = harnessNode(resolve(REPO, "bench/lib", script), JSON.stringify(options));
    const child = spawn(command, args, {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err = (err + d).slice(-4000)));
    child.on("error", fail);
    child.on("close", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || !line.startsWith("{")) fail(new Error(`${script} exited ${code}: ${err}`));
      else done(JSON.parse(line) as T);
    });
  });
}

/** Runs one evolution (bench/lib/run-once.ts) in a fresh process. */
export function spawnRun(options: BenchRunOptions & { warmPool?: number; containerBudget?: number }): Promise<RunOnceResult> {
  return spawnScript<RunOnceResult>("run-once.ts", options);
}
