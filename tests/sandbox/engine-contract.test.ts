/**
 * The sandbox port's contract, the same assertions on both engines that implement it: the real
 * Docker engine, and the in-memory test engine (sandbox/src/memory/) that tests of
 * logic run on. What those tests rely on is shown here to come out the same on both: the runner
 * sessions, outcomes as values (exit codes, timeouts, kills, memory), output caps, files in and
 * out through the one safe extractor, counting and sweeping. Isolation is not in the contract:
 * only the real engine has it (hardened-container.test.ts, tests/security).
 */
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkImports, newSessionId, openSolveSession, runImprove, runPropose, seededRandom } from "../../sandbox/src/index.js";
import { WireLlmRequest } from "../../harness/src/kernel/index.js";
import type { EngineEvent, ExtractCaps, RunOutcome, SandboxLimits } from "../../sandbox/src/index.js";
import type { ToolMessage } from "../../harness/src/kernel/index.js";
import { writeJsBuild } from "../support/js-build.js";
import { memoryEngine } from "../support/memory-engine.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";

const ENGINES: [string, () => Promise<TestEngine>][] = [
  ["docker", testEngine],
  ["in-memory", memoryEngine],
];

describe.each(ENGINES)("the %s engine", (_name, connect) => {
  let t: TestEngine;
  beforeAll(async () => {
    t = await connect();
  });
  afterEach(async () => {
    expect(await t.engine.countManaged(t.session)).toEqual({ containers: 0, volumes: 0 });
  });

  const base = () => ({ engine: t.engine, image: t.image, labels: { session: t.session, phase: "test" } });

  /** `node -e script` as a raw sandbox; stdin gets "go" so a script can wait for it. */
  async function runScript(script: string, options: { timeoutMs?: number; stdoutCap?: number; stderrCap?: number; limits?: Partial<SandboxLimits> } = {}): Promise<{ outcome: RunOutcome; lines: string[] }> {
    const created = await t.engine.createSandbox({
      image: t.image.tag,
      command: [t.image.command[0]!, "-e", script],
      labels: { session: t.session, phase: "test" },
      ...(options.limits ? { limits: options.limits } : {}),
    });
    const lines: string[] = [];
    const running = await created.start({
      timeoutMs: options.timeoutMs ?? 20_000,
      stdoutCapBytes: options.stdoutCap ?? 1024 * 1024,
      stderrCapBytes: options.stderrCap ?? 64 * 1024,
      onStdoutLine: (line) => lines.push(line),
    });
    try {
      running.send("go");
      return { outcome: await running.finished, lines };
    } finally {
      await running.remove();
    }
  }

  describe("runner sessions", () => {
    it("checks imports: the exports of a build, and a module that throws at load", async () => {
      const good = await checkImports({ ...base(), buildDir: await writeJsBuild({}), timeoutMs: 15_000 });
      expect(good).toMatchObject({ ok: true, exports: { solve: "function", improve: "function" } });
      const bad = await checkImports({ ...base(), buildDir: await writeJsBuild({ task: `throw new Error("boom at load");\n` }), timeoutMs: 15_000 });
      expect(bad.ok ? null : [bad.kind, bad.reason]).toEqual(["load_error", expect.stringContaining("boom at load")]);
    });

    it("checks imports: a load that never ends is a load timeout, a load that exits is an exit", async () => {
      const loop = await checkImports({ ...base(), buildDir: await writeJsBuild({ meta: `for (;;) {}\n` }), timeoutMs: 3_000 });
      expect(loop.ok ? null : [loop.kind, loop.outcome.timedOut]).toEqual(["timeout", true]);
      const exit = await checkImports({ ...base(), buildDir: await writeJsBuild({ task: `process.exit(0);\n` }), timeoutMs: 15_000 });
      expect(exit.ok ? null : [exit.kind, exit.outcome.exitCode]).toEqual(["crash", 0]);
      expect(exit.ok ? "" : exit.reason).toContain("before reporting its exports");
    });

    it("answers solve calls in order with the seeded random, stderr kept apart, a hang turned into a timeout", async () => {
      const task = `export async function solve(input, ctx) { console.log("noise"); if (input === "hang") for (;;) {} return { echo: input, task: ctx.task, r: ctx.random() }; }\n`;
      const session = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task }), timeoutMs: 30_000, task: "demo", seed: 7, llmAvailable: false });
      const a = await session.call({ n: 1 }, { timeoutMs: 5_000 });
      const b = await session.call([1, 2], { timeoutMs: 5_000 });
      expect(a).toEqual({ ok: true, value: { echo: { n: 1 }, task: "demo", r: seededRandom(7 ^ 1)() }, durationMs: expect.any(Number) });
      expect(b).toEqual({ ok: true, value: { echo: [1, 2], task: "demo", r: seededRandom(7 ^ 2)() }, durationMs: expect.any(Number) });
      expect(await session.call("hang", { timeoutMs: 1_500 })).toMatchObject({ ok: false, kind: "timeout" });
      expect(session.alive).toBe(false);
      const outcome = await session.close();
      expect(outcome.stderr).toContain("noise");
      expect(outcome.killed).toBe(true);
    });

    it("lets a meta agent edit its tree with the file tools and the LLM broker; the tree comes out through the extractor", async () => {
      const meta = `export async function improve(request, ctx) {
        const reply = await ctx.llm.complete({ messages: [{ role: "user", content: "hi " + request.note }] });
        await ctx.files.write("task/new.ts", "export const answer = " + JSON.stringify(reply.content) + ";\\n");
        await ctx.files.replace("task/index.ts", "1", "2");
        try { await ctx.files.read("../../etc/passwd"); } catch {}
        return { summary: "done", changedFiles: ["task/new.ts"] };
      }\n`;
      const agentDir = await mkdtemp(join(tmpdir(), "evolve-agent-"));
      await mkdir(join(agentDir, "task"));
      await writeFile(join(agentDir, "task/index.ts"), "export const x = 1;\n");
      const takeTo = join(await mkdtemp(join(tmpdir(), "evolve-take-")), "tree");
      const tools: ToolMessage[] = [];
      const result = await runImprove({
        ...base(),
        buildDir: await writeJsBuild({ meta }),
        agentDir,
        takeTo,
        timeoutMs: 30_000,
        init: { task: "demo", seed: 3, llmAvailable: true, deadline: Date.now() + 30_000, request: { note: "there" } },
        onLlm: async (raw) => ({ ok: true, response: { content: `echo:${WireLlmRequest.parse(raw).messages[0]?.content}`, toolCalls: [], finishReason: "stop", promptTokens: 3, completionTokens: 2 } }),
        onTool: (event) => tools.push(event),
      });
      expect(result.end).toBeNull();
      expect(result.report).toEqual({ summary: "done", changedFiles: ["task/new.ts"] });
      expect(result.extracted).toEqual({ ok: true, files: 2, bytes: expect.any(Number) });
      expect(await readFile(join(takeTo, "task/new.ts"), "utf8")).toContain("echo:hi there");
      expect(await readFile(join(takeTo, "task/index.ts"), "utf8")).toBe("export const x = 2;\n");
      expect(tools.map((e) => `${e.name}:${e.ok}`)).toEqual(["write:true", "replace:true", "read:false"]);
    });

    /** An improve whose meta agent runs `body` (with node:fs as fs, in /work), then returns. */
    async function improveThatLeaves(body: string, extractCaps: Partial<ExtractCaps> = {}) {
      const meta = `import * as fs from "node:fs";\nexport async function improve() { ${body}; return { summary: "left", changedFiles: [] }; }\n`;
      const agentDir = await mkdtemp(join(tmpdir(), "evolve-agent-"));
      await writeFile(join(agentDir, "a.ts"), "export {};\n");
      return runImprove({
        ...base(),
        buildDir: await writeJsBuild({ meta }),
        agentDir,
        takeTo: join(await mkdtemp(join(tmpdir(), "evolve-take-")), "tree"),
        timeoutMs: 30_000,
        init: { task: "demo", seed: 1, llmAvailable: false, deadline: Date.now() + 30_000, request: {} },
        extractCaps,
      });
    }

    it("refuses on the way out what the safe extractor refuses: a link, too many entries, a file over its cap", async () => {
      const link = await improveThatLeaves(`fs.symlinkSync("/etc/passwd", "agent/link")`);
      expect(link.extracted).toEqual({ ok: false, reason: "symbolic link refused: agent/link -> /etc/passwd" });
      const many = await improveThatLeaves(`for (let i = 0; i < 20; i++) fs.writeFileSync("agent/f" + i, "x")`, { maxEntries: 10 });
      expect(many.extracted).toEqual({ ok: false, reason: "more than 10 entries" });
      const big = await improveThatLeaves(`fs.writeFileSync("agent/big", "x".repeat(5000))`, { maxFileBytes: 4096 });
      expect(big.extracted).toEqual({ ok: false, reason: "file agent/big is 5000 bytes, over the 4096-byte cap" });
    });

    it("kills a meta agent that does not return at its time limit, and takes nothing", async () => {
      const agentDir = await mkdtemp(join(tmpdir(), "evolve-agent-"));
      await writeFile(join(agentDir, "x.ts"), "export {};\n");
      const result = await runImprove({
        ...base(),
        buildDir: await writeJsBuild({ meta: `export async function improve() { process.on("SIGTERM", () => {}); for (;;) {} }\n` }),
        agentDir,
        takeTo: join(agentDir, "..", "never"),
        timeoutMs: 2_000,
        init: { task: "demo", seed: 1, llmAvailable: false, deadline: Date.now() + 2_000, request: {} },
      });
      expect(result.outcome).toMatchObject({ timedOut: true, killed: true, exitCode: 137 });
      expect(result.end).toMatchObject({ kind: "timeout", reason: expect.stringContaining("time limit") });
      expect(result.extracted.ok).toBe(false);
    });

    it("runs a tester's propose once and the process ends by itself", async () => {
      const tester = `export async function propose(request, ctx) { return [{ round: request.round, task: ctx.task }]; }\n`;
      const answer = await runPropose({
        ...base(),
        buildDir: await writeJsBuild({ extra: { "tester/index.js": tester } }),
        task: "demo",
        seed: 5,
        llmAvailable: false,
        request: { round: 2 },
        timeoutMs: 20_000,
        outputCapBytes: 64 * 1024,
      });
      expect(answer).toMatchObject({ ok: true, value: [{ round: 2, task: "demo" }] });
    });
  });

  describe("raw sandboxes", () => {
    it("ends with the process's exit code, stderr cut at its cap", async () => {
      const { outcome } = await runScript(`process.stderr.write("e".repeat(10000)); process.exitCode = 3;`, { stderrCap: 1000 });
      expect(outcome).toMatchObject({ exitCode: 3, timedOut: false, killed: false, oomKilled: false, stderrTruncated: true, stdoutTruncated: false });
      expect(outcome.stderr).toBe("e".repeat(1000));
    });

    it("cuts a stdout flood at the cap, kills the process and says so", async () => {
      const flood = `const s = "x".repeat(65536); (function w() { if (process.stdout.write(s)) setImmediate(w); else process.stdout.once("drain", w); })();`;
      const { outcome, lines } = await runScript(flood, { stdoutCap: 256 * 1024 });
      expect(outcome).toMatchObject({ stdoutTruncated: true, killed: true });
      expect(lines.join("").length).toBeLessThanOrEqual(256 * 1024);
    });

    it("kills a process that traps SIGTERM and spins, at the timeout", async () => {
      const { outcome } = await runScript(`process.on("SIGTERM", () => {}); for (;;) {}`, { timeoutMs: 1_500 });
      expect(outcome).toMatchObject({ timedOut: true, killed: true, exitCode: 137 });
    });

    it("reports a memory hog past its limit as OOM-killed", async () => {
      const hog = `const keep = []; for (;;) { const b = Buffer.alloc(16 << 20); b.fill(1); keep.push(b); }`;
      const { outcome } = await runScript(hog, { limits: { memoryBytes: 128 << 20 } });
      expect(outcome.oomKilled).toBe(true);
      expect(outcome.exitCode).not.toBe(0);
    });

    it("takes files in and out of a paused sandbox, then kills it", async () => {
      const source = await mkdtemp(join(tmpdir(), "evolve-src-"));
      await mkdir(join(source, "deep/er"), { recursive: true });
      await writeFile(join(source, "deep/er/a.txt"), "alpha");
      await writeFile(join(source, "b.ts"), "export const b = 1;\n");
      const created = await t.engine.createSandbox({ image: t.image.tag, command: [t.image.command[0]!, "-e", "process.stdin.resume()"], labels: { session: t.session } });
      const running = await created.start({ timeoutMs: 20_000, stdoutCapBytes: 1024, stderrCapBytes: 1024 });
      try {
        await running.putDirectory(source, "/work/tree");
        await running.pause();
        const dest = join(await mkdtemp(join(tmpdir(), "evolve-out-")), "out");
        expect(await running.takeDirectory("/work/tree", dest)).toEqual({ ok: true, files: 2, bytes: 25 });
        expect(await readFile(join(dest, "deep/er/a.txt"), "utf8")).toBe("alpha");
        const missing = await running.takeDirectory("/work/none", join(dest, "..", "none"));
        expect(missing.ok ? "" : missing.reason).toContain("/work/none could not be read");
        await expect(running.takeDirectory("/etc", join(dest, "..", "etc"))).rejects.toThrow("must be under /work");
        await running.kill();
        expect(await running.finished).toMatchObject({ killed: true, timedOut: false, exitCode: 137 });
      } finally {
        await running.remove();
      }
    });

    it("counts and sweeps one session's sandboxes, and says where each was placed", async () => {
      const other = newSessionId();
      const placed: EngineEvent[] = [];
      const stop = t.engine.watch((event) => placed.push(event));
      const created = await t.engine.createSandbox({ image: t.image.tag, command: [t.image.command[0]!, "-e", "process.stdin.resume()"], labels: { session: other, run: "sweep" } });
      const running = await created.start({ timeoutMs: 20_000, stdoutCapBytes: 1024, stderrCapBytes: 1024 });
      stop();
      try {
        expect(placed).toEqual([{ type: "placed", engine: expect.any(String), labels: { session: other, run: "sweep" } }]);
        expect(await t.engine.countManaged(other)).toEqual({ containers: 1, volumes: 1 });
        expect(await t.engine.sweep({ session: other })).toEqual({ containers: 1, volumes: 1 });
        expect(await t.engine.countManaged(other)).toEqual({ containers: 0, volumes: 0 });
        expect((await running.finished).exitCode).not.toBe(0);
      } finally {
        await running.remove();
      }
    });
  });
});
