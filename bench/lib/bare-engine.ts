/**
 * Bench-only SandboxEngine whose "sandboxes" are plain child processes of bench/lib/bare-runner.ts
 * (no container). Only solve sessions are supported. It exists to measure the sandbox tax
 * against the same session and grading code; it must only ever run trusted code (the
 * repository's unmodified seed agent), never an archived or model-written agent.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import ts from "typescript";
import { type RunningSandbox, type RunOutcome, type SandboxEngine } from "../../sandbox/src/index.js";
import { EvolveError } from "../../harness/src/kernel/index.js";

const REPO = resolve(import.meta.dirname, "../..");

async function transpile(from: string, to: string, rewrite: [string, string][] = []): Promise<void> {
  let out = ts.transpileModule(await readFile(from, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  for (const [a, b] of rewrite) out = out.replaceAll(a, b);
  await writeFile(to, out);
}

/** A bare-process engine; `close()` removes its temp folder. */
export async function bareEngine(): Promise<SandboxEngine> {
  const dir = await mkdtemp(join(tmpdir(), "evolve-bench-bare-"));
  const runner = join(dir, "bare-runner.mjs");
  await transpile(join(REPO, "sandbox/runner/seeded-random.ts"), join(dir, "seeded-random.mjs"));
  await transpile(join(REPO, "bench/lib/bare-runner.ts"), runner, [["../../sandbox/runner/seeded-random.js", "./seeded-random.mjs"]]);
  let n = 0;
  const unsupported = (what: string): never => {
    throw new EvolveError("internal", `the bench's bare engine does not support ${what}`);
  };
  return {
    endpoint: "bare-process",
    info: async () => ({ endpoint: "bare-process", version: process.version, apiVersion: "-", runtimes: [], architecture: process.arch, cpus: availableParallelism(), memoryBytes: totalmem() }),
    ensureRuntimeImage: async () => ({ tag: "bare-process", command: [process.execPath, runner], built: false }),
    createSandbox: async () => unsupported("createSandbox"),
    close: () => rm(dir, { recursive: true, force: true }),
    sweep: async () => ({ containers: 0, volumes: 0 }),
    countManaged: async () => ({ containers: 0, volumes: 0 }),
    engines: () => [{ name: "bare-process", endpoint: "bare-process", state: "up", reason: null, info: null, slots: null, running: 0, image: null }],
    watch: () => () => undefined,
    async startSandbox(_spec, options): Promise<RunningSandbox> {
      const work = join(dir, `s${n++}`);
      await mkdir(work);
      const started = performance.now();
      // An empty environment: nothing of the host's (no secrets) reaches the process.
      const child = spawn(process.execPath, [runner, work], { env: {}, cwd: work, stdio: ["pipe", "pipe", "pipe"] });
      let killed = false;
      let timedOut = false;
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        if (stderr.length < options.stderrCapBytes) stderr += d;
      });
      if (options.onStdoutLine) createInterface({ input: child.stdout }).on("line", options.onStdoutLine);
      const timer = setTimeout(() => {
        timedOut = killed = true;
        child.kill("SIGKILL");
      }, options.timeoutMs);
      const finished = new Promise<RunOutcome>((done) =>
        child.on("close", (code) => {
          clearTimeout(timer);
          done({ exitCode: code, timedOut, oomKilled: false, killed, stdoutTruncated: false, stderrTruncated: false, stderr, durationMs: performance.now() - started });
        }),
      );
      const kill = async (): Promise<void> => {
        if (child.exitCode === null && child.signalCode === null) {
          killed = true;
          child.kill("SIGKILL");
        }
        await finished;
      };
      return {
        id: `bare-${child.pid ?? 0}`,
        finished,
        putDirectory: async () => unsupported("putDirectory"),
        takeDirectory: async () => unsupported("takeDirectory"),
        send: (message) => void child.stdin.write(JSON.stringify(message) + "\n"),
        closeStdin: () => void child.stdin.end(),
        pause: async () => unsupported("pause"),
        // The bare runner writes no flush token: a session waits for the process's end, as before.
        flushed: async () => null,
        kill,
        async remove() {
          await kill();
          await rm(work, { recursive: true, force: true });
        },
      };
    },
  };
}
