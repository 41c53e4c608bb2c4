/** An `evolve` binary run as a user would: a child process in a folder of the user's choosing. */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { offlineEnv } from "../support/evolve-process.js";

const exec = promisify(execFile);

/** The checkout's own CLI. */
export const CHECKOUT_BIN = resolve(import.meta.dirname, "../../bin/evolve.js");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node BIN ...args` in `cwd`, with no LLM in its environment. */
export async function runEvolve(bin: string, args: readonly string[], cwd: string, timeoutMs = 180_000): Promise<CliRun> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { cwd, env: offlineEnv(), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}
