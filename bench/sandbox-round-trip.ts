/**
 * `npm run bench:sandbox`: one full sandbox round trip (create → put workspace → run node →
 * take workspace → remove), p50/p95 over RUNS runs, per runtime, next to a bare `node -e 0`
 * child process and the `docker run --rm` CLI on the same image. Prints and saves; asserts nothing.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { connectEngines, newSessionId } from "../sandbox/src/index.js";
import type { Runtime } from "../harness/src/kernel/index.js";
import { saveResults, summarize, table, timeIt } from "./lib/stats.js";

const run = promisify(execFile);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 20);

const engine = await connectEngines();
const image = await engine.ensureRuntimeImage({ onProgress: console.log });
const info = await engine.info();
const session = newSessionId();
const node = image.command[0] as string;

// A small agent-sized workspace: 40 files, ~120 KB.
const workspace = await mkdtemp(join(tmpdir(), "evolve-bench-ws-"));
for (let i = 0; i < 40; i++) {
  await mkdir(join(workspace, `dir${i % 5}`), { recursive: true });
  await writeFile(join(workspace, `dir${i % 5}`, `file${i}.ts`), `export const value${i} = ${i};\n`.repeat(100));
}

// node waits for one line, says so, waits for the next, exits: the workspace is taken in between.
const script = `const rl = require("readline").createInterface({ input: process.stdin }); let n = 0; rl.on("line", () => { if (++n === 1) console.log("ran"); else process.exit(0); });`;

async function ourRoundTrip(runtime: Runtime): Promise<void> {
  const created = await engine.createSandbox({ image: image.tag, command: [node, "-e", script], labels: { session, phase: "bench" }, runtime });
  let ran: () => void = () => undefined;
  const ranLine = new Promise<void>((resolve) => (ran = resolve));
  const running = await created.start({ timeoutMs: 30_000, stdoutCapBytes: 4096, stderrCapBytes: 4096, onStdoutLine: () => ran() });
  try {
    await running.putDirectory(workspace, "/work/agent");
    running.send("go");
    await ranLine;
    const out = join(await mkdtemp(join(tmpdir(), "evolve-bench-out-")), "agent");
    const taken = await running.takeDirectory("/work/agent", out);
    if (!taken.ok) throw new Error(`take failed: ${taken.reason}`);
    running.send("bye");
    await running.finished;
  } finally {
    await running.remove();
  }
}

const measurements: Record<string, number[]> = {};
async function measure(name: string, action: () => Promise<unknown>): Promise<void> {
  await action(); // warm-up, not counted
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timeIt(action));
  measurements[name] = times;
  console.log(`${name}: done`);
}

await measure("bare node -e 0 (child process)", () => run(process.execPath, ["-e", "0"]));
await measure("docker run --rm (CLI, same image)", () => run("docker", ["run", "--rm", "--network", "none", image.tag, node, "-e", "0"]));
for (const runtime of info.runtimes) {
  await measure(`evolve round trip (${runtime})`, () => ourRoundTrip(runtime));
  if (runtime === "runsc") {
    await measure("docker run --rm (CLI, runsc)", () => run("docker", ["run", "--rm", "--runtime", "runsc", "--network", "none", image.tag, node, "-e", "0"]));
  }
}
await rm(workspace, { recursive: true, force: true });

const rows: (string | number)[][] = [["what", "runs", "p50 ms", "p95 ms", "min ms", "max ms"]];
const results: Record<string, ReturnType<typeof summarize>> = {};
for (const [name, times] of Object.entries(measurements)) {
  const s = summarize(times);
  results[name] = s;
  rows.push([name, s.n, s.p50, s.p95, s.min, s.max]);
}
console.log(`\nsandbox round trip, ${RUNS} runs each (workspace: 40 files, ~120 KB in and out)\n`);
console.log(table(rows));
console.log(`\nsaved ${await saveResults("sandbox-round-trip", { runs: RUNS, engine: info, results })}`);
const left = await engine.countManaged(session);
if (left.containers + left.volumes > 0) console.log(`warning: ${left.containers} containers / ${left.volumes} volumes left`);
