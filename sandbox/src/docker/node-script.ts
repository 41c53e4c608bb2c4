/**
 * A short ES-module script run in a fresh process of a Node binary with no flags and an empty
 * environment: how the image's staging asks the Node it copies about the toolchain (its code
 * caches, toolchain-code-cache.ts; its export names, toolchain-esm-entry.ts). V8 takes a code
 * cache only under the flags it was made with, and no setting of the harness's own process
 * leaks in.
 */
import { execFile } from "node:child_process";

export type ScriptResult = { ok: true; value: unknown } | { ok: false; reason: string };

/** Runs `program`, which prints one JSON value; a failure's reason is Node's message and the script's error line. */
export function runNodeScript(nodeBinary: string, program: string, timeoutMs: number, maxBuffer = 1 << 20): Promise<ScriptResult> {
  return new Promise((resolve) => {
    execFile(nodeBinary, ["--input-type=module", "-e", program], { env: {}, timeout: timeoutMs, maxBuffer, encoding: "utf8" }, (error, stdout, stderr) => {
      if (!error) {
        try {
          resolve({ ok: true, value: JSON.parse(stdout) as unknown });
        } catch {
          resolve({ ok: false, reason: `unexpected output: ${stdout.slice(0, 200)}` });
        }
        return;
      }
      // Node ends an uncaught error's report with its own version line: the error's is above it.
      const lines = stderr.split("\n").map((line) => line.trim());
      const cause = lines.find((line) => /^[A-Za-z]*Error\b/.test(line)) ?? lines.filter((line) => line !== "").at(-1);
      resolve({ ok: false, reason: `${error.message.split("\n")[0]!.slice(0, 200)}${cause ? `: ${cause}` : ""}` });
    });
  });
}
