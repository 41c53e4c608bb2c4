/** Runs a command as a child process under GNU time: wall time, peak RSS, its stdout. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

export interface ProcessMeasure {
  wallMs: number;
  /** Peak resident set size in MB (null when /usr/bin/time is missing). */
  maxRssMb: number | null;
  exitCode: number | null;
  stdout: string;
}

const GNU_TIME = "/usr/bin/time";

/** Runs `command args` (under /usr/bin/time -v when present) and measures it. */
export function measureProcess(command: string, args: string[], cwd: string): Promise<ProcessMeasure> {
  const timed = existsSync(GNU_TIME);
  const [file, argv] = timed ? [GNU_TIME, ["-v", command, ...args]] : [command, args];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (exitCode) => {
      const wallMs = performance.now() - started;
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1];
      resolve({ wallMs, maxRssMb: kb === undefined ? null : Number(kb) / 1024, exitCode, stdout });
    });
  });
}
