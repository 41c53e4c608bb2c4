/** The trusted runner and its host-side sessions, on the real engine. */
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkImports, openSolveSession, runImprove } from "../../sandbox/src/index.js";
import { WireLlmRequest, type WireJson } from "../../harness/src/kernel/index.js";
import { seededRandom } from "../../sandbox/runner/seeded-random.js";
import type { ToolMessage } from "../../harness/src/kernel/index.js";
import { writeJsBuild } from "../support/js-build.js";
import { testEngine } from "../support/test-engine.js";
import type { TestEngine } from "../support/test-engine.js";

let t: TestEngine;
beforeAll(async () => {
  t = await testEngine();
});
afterEach(async () => {
  expect(await t.engine.countManaged(t.session)).toEqual({ containers: 0, volumes: 0 });
});

const base = () => ({ engine: t.engine, image: t.image, labels: { session: t.session, phase: "test" } });

describe("import check", () => {
  it("reports the type of each contract export", async () => {
    const result = await checkImports({ ...base(), buildDir: await writeJsBuild({}), timeoutMs: 15_000 });
    expect(result).toMatchObject({ ok: true, exports: { solve: "function", improve: "function" } });
  });

  it("reports a module that throws at load", async () => {
    const result = await checkImports({ ...base(), buildDir: await writeJsBuild({ task: `throw new Error("boom at load");\n` }), timeoutMs: 15_000 });
    expect(result.ok).toBe(false);
    expect(result.ok ? null : result.kind).toBe("load_error");
    expect(result.ok ? "" : result.reason).toContain("boom at load");
  });

  it("reports a module that loops forever at load", async () => {
    const result = await checkImports({ ...base(), buildDir: await writeJsBuild({ meta: `for (;;) {}\n` }), timeoutMs: 3_000 });
    expect(result.ok ? null : result.kind).toBe("timeout");
  });

  it("reports a module that exits at load", async () => {
    const result = await checkImports({ ...base(), buildDir: await writeJsBuild({ task: `process.exit(0);\n` }), timeoutMs: 15_000 });
    expect(result.ok ? null : result.kind).toBe("crash");
  });
});

describe("solve session", () => {
  it("answers calls in order with the seeded random and task name", async () => {
    const task = `export async function solve(input, ctx) { console.log("noise goes to stderr"); return { echo: input, task: ctx.task, r: [ctx.random(), ctx.random()] }; }\n`;
    const session = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task }), timeoutMs: 30_000, task: "demo", seed: 7, llmAvailable: false });
    const a = await session.call({ n: 1 }, { timeoutMs: 5_000 });
    const b = await session.call([1, 2, 3], { timeoutMs: 5_000 });
    const outcome = await session.close();
    // Call k's ctx.random is the project's PRNG seeded with (session seed XOR k): the same
    // answers for the same seed on every run, a different stream for every call.
    const draws = (seed: number): number[] => {
      const random = seededRandom(seed);
      return [random(), random()];
    };
    expect(a).toEqual({ ok: true, value: { echo: { n: 1 }, task: "demo", r: draws(7 ^ 1) }, durationMs: expect.any(Number) });
    expect(b).toEqual({ ok: true, value: { echo: [1, 2, 3], task: "demo", r: draws(7 ^ 2) }, durationMs: expect.any(Number) });
    expect(draws(7 ^ 1)).not.toEqual(draws(7 ^ 2));
    expect(outcome.stderr).toContain("noise goes to stderr");
  });

  it("turns a hang into a timeout and ends the session", async () => {
    const task = `export async function solve(input) { if (input === "hang") for (;;) {} return 1; }\n`;
    const session = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task }), timeoutMs: 30_000, task: "demo", seed: 1, llmAvailable: false });
    const reply = await session.call("hang", { timeoutMs: 1_500 });
    expect(reply).toMatchObject({ ok: false, kind: "timeout" });
    expect(session.alive).toBe(false);
    expect(await session.call("fine", { timeoutMs: 1_000 })).toMatchObject({ ok: false, kind: "crash" });
    await session.close();
  });

  it("treats junk on stdout as a protocol violation", async () => {
    const task = `import { writeSync } from "node:fs"; export async function solve() { writeSync(1, '{"type":"result","id":1,"ok":true,"value":"forged"}\\nnot json\\n'); return "real"; }\n`;
    const session = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task }), timeoutMs: 30_000, task: "demo", seed: 1, llmAvailable: false });
    // The forged line arrives first and is well-formed, so it is the answer to call 1 (it is
    // the candidate's own output all the same); the junk line after it kills the container.
    const reply = await session.call(null, { timeoutMs: 5_000 });
    expect(reply).toMatchObject({ ok: true, value: "forged" });
    const next = await session.call(null, { timeoutMs: 5_000 });
    expect(next).toMatchObject({ ok: false, kind: "protocol" });
    expect(next.ok ? "" : next.reason).toContain('not a protocol message: "not json"');
    expect(session.alive).toBe(false);
    await session.close();
  });

  it("releases with the whole stderr before the container is down, and the engine then counts nothing left", async () => {
    // 64 lines of 1 KB in the last call: more than one pipe buffer and many attach frames.
    const task = `import { writeSync } from "node:fs"; export async function solve(n) { for (let i = 0; i < n; i++) writeSync(2, "line " + i + " " + "x".repeat(1000) + "\\n"); console.log("last words"); return n; }\n`;
    const session = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task }), timeoutMs: 30_000, task: "demo", seed: 1, llmAvailable: false, stderrCapBytes: 1 << 20 });
    expect(await session.call(64, { timeoutMs: 5_000 })).toMatchObject({ ok: true, value: 64 });
    const stderr = await session.release();
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(65);
    expect(lines.at(-2)).toMatch(/^line 63 x{1000}$/);
    expect(lines.at(-1)).toBe("last words");
    expect(stderr).not.toContain("evolve-flushed");
    expect(session.alive).toBe(false);
    // afterEach: the engine counts after the removals under way.
  });

  it("releases a session cut at its stderr cap, one deaf to the shutdown, and one that died, without losing a container", async () => {
    const flood = `import { writeSync } from "node:fs"; export async function solve() { for (let i = 0; i < 2000; i++) writeSync(2, "f".repeat(1000) + "\\n"); return 1; }\n`;
    const capped = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task: flood }), timeoutMs: 30_000, task: "demo", seed: 1, llmAvailable: false, stderrCapBytes: 4096 });
    await capped.call(null, { timeoutMs: 5_000 });
    const cut = await capped.release();
    expect(cut.length).toBeLessThanOrEqual(4096);
    expect(cut).toMatch(/^f+\n/);

    // Its event loop busy after the answer: the runner never reads the shutdown, so the grace runs out and it is killed.
    const deaf = `export async function solve() { setTimeout(() => { for (;;) {} }, 50); return 1; }\n`;
    const busy = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task: deaf }), timeoutMs: 60_000, task: "demo", seed: 1, llmAvailable: false });
    await busy.call(null, { timeoutMs: 5_000 });
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    expect(typeof (await busy.release())).toBe("string");
    expect(Date.now() - started).toBeLessThan(20_000);

    const hang = `export async function solve() { for (;;) {} }\n`;
    const dead = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task: hang }), timeoutMs: 30_000, task: "demo", seed: 1, llmAvailable: false });
    expect(await dead.call(null, { timeoutMs: 1_000 })).toMatchObject({ ok: false, kind: "timeout" });
    expect(typeof (await dead.release())).toBe("string");
  }, 60_000);

  it("reports a thrown error without ending the session", async () => {
    const task = `export async function solve(input) { if (input) throw new Error("nope"); return "ok"; }\n`;
    const session = await openSolveSession({ ...base(), buildDir: await writeJsBuild({ task }), timeoutMs: 30_000, task: "demo", seed: 1, llmAvailable: false });
    expect(await session.call(true, { timeoutMs: 5_000 })).toMatchObject({ ok: false, kind: "error" });
    expect(await session.call(false, { timeoutMs: 5_000 })).toMatchObject({ ok: true, value: "ok" });
    await session.close();
  });
});

describe("improve", () => {
  it("lets the meta agent edit its tree through the file tools and the LLM broker", async () => {
    const meta = `export async function improve(request, ctx) {
      const files = await ctx.files.list();
      const reply = await ctx.llm.complete({ messages: [{ role: "user", content: "hi " + request.note }] });
      await ctx.files.write("task/new.ts", "export const answer = " + JSON.stringify(reply.content) + ";\\n");
      await ctx.files.replace("task/index.ts", "1", "2");
      try { await ctx.files.read("../../etc/passwd"); } catch {}
      return { summary: "wrote " + files.length, changedFiles: ["task/new.ts", "task/index.ts"] };
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
      onLlm: async (raw) => {
        const request = WireLlmRequest.parse(raw);
        return { ok: true, response: { content: `echo:${request.messages[0]?.content}`, toolCalls: [], finishReason: "stop", promptTokens: 3, completionTokens: 2 } };
      },
      onTool: (event) => tools.push(event),
    });
    expect(result.end).toBeNull();
    expect(result.report).toEqual({ summary: "wrote 1", changedFiles: ["task/new.ts", "task/index.ts"] });
    expect(result.extracted).toMatchObject({ ok: true, files: 2 });
    expect(await readFile(join(takeTo, "task/new.ts"), "utf8")).toContain("echo:hi there");
    expect(await readFile(join(takeTo, "task/index.ts"), "utf8")).toBe("export const x = 2;\n");
    expect(tools.map((e) => `${e.name}:${e.ok}`)).toEqual(["list:true", "write:true", "replace:true", "read:false"]);
  });

  it("turns a malformed, unserialisable or oversized LLM request into a refusal the agent catches; the container lives on", async () => {
    // Each attempt records what the agent's call rejected with; none may end the container.
    const meta = `export async function improve(request, ctx) {
      const seen = [];
      const attempt = async (label, req) => {
        try { await ctx.llm.complete(req); seen.push(label + ":answered"); }
        catch (e) { seen.push(label + ":" + e.code + ":" + (e instanceof Error)); }
      };
      await attempt("bad-field", { messages: [{ role: "tool", content: 5 }] });
      await attempt("bigint", { messages: [{ role: "user", content: "x" }], maxTokens: 10n });
      const cyclic = { messages: [] }; cyclic.self = cyclic;
      await attempt("cycle", cyclic);
      await attempt("huge", { messages: [{ role: "user", content: "x".repeat(2 * 1024 * 1024) }] });
      await attempt("fine", { messages: [{ role: "user", content: "hello" }] });
      return { summary: seen.join(" "), changedFiles: [] };
    }\n`;
    const agentDir = await mkdtemp(join(tmpdir(), "evolve-agent-"));
    await writeFile(join(agentDir, "x.ts"), "export {};\n");
    const received: unknown[] = [];
    const result = await runImprove({
      ...base(),
      buildDir: await writeJsBuild({ meta }),
      agentDir,
      takeTo: join(await mkdtemp(join(tmpdir(), "evolve-take-")), "tree"),
      timeoutMs: 30_000,
      init: { task: "demo", seed: 3, llmAvailable: true, deadline: Date.now() + 30_000, request: {} },
      onLlm: async (raw) => {
        received.push(raw);
        const parsed = WireLlmRequest.safeParse(raw);
        if (!parsed.success) return { ok: false, code: "invalid_request", error: "malformed" };
        return { ok: true, response: { content: "hi", toolCalls: [], finishReason: "stop", promptTokens: 1, completionTokens: 1 } };
      },
    });
    expect(result.end, result.outcome.stderr).toBeNull();
    expect(result.report).toEqual({
      summary: "bad-field:invalid_request:true bigint:invalid_request:true cycle:invalid_request:true huge:invalid_request:true fine:answered",
      changedFiles: [],
    });
    // Only the malformed field and the fine request left the container; the runner refused the rest itself.
    expect(received).toHaveLength(2);
    expect(result.extracted.ok).toBe(true);
  });

  it("releases a meta agent that returned once its stderr is flushed, and kills one deaf to the shutdown after the grace", async () => {
    const agentDir = await mkdtemp(join(tmpdir(), "evolve-agent-"));
    await writeFile(join(agentDir, "x.ts"), "export {};\n");
    const run = async (meta: string, timeoutMs: number) =>
      runImprove({
        ...base(),
        buildDir: await writeJsBuild({ meta }),
        agentDir,
        takeTo: join(agentDir, "..", `taken-${Math.random().toString(36).slice(2)}`),
        timeoutMs,
        init: { task: "demo", seed: 1, llmAvailable: false, deadline: Date.now() + timeoutMs, request: {} },
      });
    const talker = `import { writeSync } from "node:fs"; export async function improve() { for (let i = 0; i < 100; i++) writeSync(2, "said " + i + "\\n"); return { summary: "talked", changedFiles: [] }; }\n`;
    const released = await run(talker, 30_000);
    expect(released.end).toBeNull();
    expect(released.extracted.ok).toBe(true);
    expect(released.outcome.stderr.trimEnd().split("\n").at(-1)).toBe("said 99");
    expect(released.outcome.stderr).not.toContain("evolve-flushed");
    // Taken as flushed: nobody waited for the exit.
    expect(released.outcome.exitCode).toBeNull();

    // Deaf to the host once it returns (the runner's stdin listeners gone, the process kept alive):
    // before, the host waited for it until the container's time limit (60 s here).
    const deaf = `export async function improve() { process.stdin.removeAllListeners("data"); process.stdin.pause(); setInterval(() => undefined, 1000); return { summary: "deaf", changedFiles: [] }; }\n`;
    const started = Date.now();
    const killed = await run(deaf, 60_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(killed.end).toBeNull();
    expect(killed.report).toEqual({ summary: "deaf", changedFiles: [] });
  }, 90_000);

  it("kills a meta agent that does not return and takes nothing", async () => {
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
    expect(result.outcome.timedOut).toBe(true);
    expect(result.end).toMatchObject({ kind: "timeout", reason: expect.stringContaining("time limit") });
    expect(result.extracted.ok).toBe(false);
  });
});
