/**
 * Bench-only: the bare-process side of the sandbox-tax benchmark. It speaks the subset of
 * the runner protocol a solve session uses (files, init solve, call, shutdown) in a plain
 * child process, with the same ctx as the in-container runner, so the one difference
 * measured is the container. It only ever runs the repository's own, unmodified seed
 * agent (trusted code); bench/sandbox-tax.ts checks that before starting it.
 *
 * Transpiled to a temp folder and started as `node bare-runner.mjs <workdir>` with an
 * empty environment.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { format } from "node:util";
import { seededRandom } from "../../sandbox/runner/seeded-random.js";

const workDir = process.argv[2] ?? "";
if (workDir === "") throw new Error("usage: bare-runner <workdir>");
const write = process.stdout.write.bind(process.stdout);
const toStderr = (...args: unknown[]): void => void process.stderr.write(format(...args) + "\n");
console.log = toStderr;
const send = (message: unknown): Promise<void> => new Promise((resolve) => write(JSON.stringify(message) + "\n", () => resolve()));
const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 4000);

type Message =
  | { type: "files"; root: string; files: { path: string; base64: string }[] }
  | { type: "init"; mode: string; task: string; seed: number; llmAvailable: boolean }
  | { type: "call"; id: number; input: unknown; deadline: number }
  | { type: "shutdown" };

let solve: ((input: unknown, ctx: unknown) => Promise<unknown>) | null = null;
let init: Extract<Message, { type: "init" }> | null = null;
let queue: Promise<void> = Promise.resolve();
const early: Extract<Message, { type: "call" }>[] = [];

function call(message: Extract<Message, { type: "call" }>): void {
  queue = queue.then(async () => {
    if (solve === null || init === null) return;
    const ctx = {
      task: init.task,
      seed: (init.seed ^ message.id) >>> 0,
      deadline: message.deadline,
      llm: { available: false, complete: () => Promise.reject(new Error("no LLM is configured for this run (offline)")) },
      random: seededRandom((init.seed ^ message.id) >>> 0),
      log: (text: string) => toStderr(String(text).slice(0, 2000)),
    };
    try {
      const value = JSON.parse(JSON.stringify((await solve(message.input, ctx)) ?? null)) as unknown;
      await send({ type: "result", id: message.id, ok: true, value });
    } catch (error) {
      await send({ type: "result", id: message.id, ok: false, error: describe(error) });
    }
  });
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
  const message = JSON.parse(line) as Message;
  switch (message.type) {
    case "shutdown":
      process.exit(0);
      break;
    case "files":
      for (const file of message.files) {
        const target = join(workDir, message.root, ...file.path.split("/").filter((s) => s !== ".." && s !== ""));
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, Buffer.from(file.base64, "base64"));
      }
      break;
    case "init":
      init = message;
      void import(pathToFileURL(join(workDir, "build", "task", "index.js")).href).then(
        async (module: Record<string, unknown>) => {
          solve = module["solve"] as typeof solve;
          await send({ type: "ready", exports: { solve: typeof module["solve"] } });
          for (const m of early.splice(0)) call(m);
        },
        async (error: unknown) => {
          await send({ type: "load-error", message: describe(error) });
          process.exit(1);
        },
      );
      break;
    case "call":
      if (solve === null) early.push(message);
      else call(message);
      break;
  }
});
