/** Arena: a tester's `propose` in a real container, and every way it can fail as a value. */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runPropose, seededRandom, type ProposeOptions } from "../../sandbox/src/index.js";
import { WireLlmRequest } from "../../harness/src/kernel/index.js";
import { writeJsBuild } from "../support/js-build.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";

let t: TestEngine;
beforeAll(async () => {
  t = await testEngine();
});
afterEach(async () => {
  expect(await t.engine.countManaged(t.session)).toEqual({ containers: 0, volumes: 0 });
});

/** A build whose tester/index.js is `tester` (absent when null). */
const build = (tester: string | null): Promise<string> => writeJsBuild({ extra: tester === null ? {} : { "tester/index.js": tester } });

async function propose(tester: string | null, over: Partial<ProposeOptions> = {}) {
  return runPropose({
    engine: t.engine,
    image: t.image,
    labels: { session: t.session, phase: "propose" },
    buildDir: await build(tester),
    task: "demo",
    seed: 5,
    llmAvailable: false,
    request: { round: 2, note: "hi" },
    timeoutMs: 20_000,
    outputCapBytes: 64 * 1024,
    ...over,
  });
}

describe("runPropose", () => {
  it("returns what a good tester proposes, with the seeded random and the task name", async () => {
    const tester = `export async function propose(request, ctx) {
      console.log("chatter goes to stderr");
      return [{ round: request.round, task: ctx.task, r: ctx.random(), llm: ctx.llm.available, soon: ctx.deadline > Date.now() }];
    }\n`;
    const answer = await propose(tester);
    expect(answer, answer.stderr).toMatchObject({ ok: true, value: [{ round: 2, task: "demo", r: seededRandom(5)(), llm: false, soon: true }] });
    expect(answer.stderr).toContain("chatter goes to stderr");
  });

  it("serves the tester's LLM calls through the broker callback", async () => {
    const tester = `export async function propose(request, ctx) {
      const reply = await ctx.llm.complete({ messages: [{ role: "user", content: "propose" }] });
      return [reply.content];
    }\n`;
    const answer = await propose(tester, {
      llmAvailable: true,
      onLlm: async (raw) => ({ ok: true, response: { content: `echo:${WireLlmRequest.parse(raw).messages[0]?.content}`, toolCalls: [], finishReason: "stop", promptTokens: 1, completionTokens: 1 } }),
    });
    expect(answer).toMatchObject({ ok: true, value: ["echo:propose"] });
  });

  it("reports a tester that throws", async () => {
    const answer = await propose(`export async function propose() { throw new Error("no ideas"); }\n`);
    expect(answer).toMatchObject({ ok: false, kind: "error" });
    expect(answer.ok ? "" : answer.reason).toContain("no ideas");
  });

  it("kills a tester that hangs past timeoutMs", async () => {
    const started = Date.now();
    const answer = await propose(`export async function propose() { process.on("SIGTERM", () => {}); for (;;) {} }\n`, { timeoutMs: 2_500 });
    expect(answer).toMatchObject({ ok: false, kind: "timeout" });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("keeps process.stdout.write off the protocol channel: a flood is capped stderr, the answer still arrives", async () => {
    const tester = `export async function propose() {
      const s = "x".repeat(65536);
      for (let i = 0; i < 160; i++) process.stdout.write(s);
      return ["after the flood"];
    }\n`;
    const answer = await propose(tester, { stderrCapBytes: 64 * 1024 });
    expect(answer).toMatchObject({ ok: true, value: ["after the flood"] });
    expect(answer.stderr.length).toBeLessThanOrEqual(64 * 1024);
  });

  it("stops a tester that floods the real stdout with well-formed lines past the cap", async () => {
    const tester = `import { writeSync } from "node:fs";
    export async function propose() {
      const line = JSON.stringify({ type: "tool", name: "list", path: null, ok: true, error: null }) + "\\n";
      // Under PIPE_BUF, so each write is whole; a full pipe (EAGAIN) is simply retried.
      const chunk = line.repeat(Math.floor(4096 / line.length));
      for (;;) try { writeSync(1, chunk); } catch {}
    }\n`;
    const answer = await propose(tester, { outputCapBytes: 1024 });
    expect(answer).toMatchObject({ ok: false, kind: "output_too_large" });
  });

  it("refuses an answer over outputCapBytes", async () => {
    const answer = await propose(`export async function propose() { return ["y".repeat(100_000)]; }\n`, { outputCapBytes: 64 * 1024 });
    expect(answer).toMatchObject({ ok: false, kind: "output_too_large" });
    expect(answer.ok ? "" : answer.reason).toContain("65536");
  });

  it("reports a tester without a propose export, and a build without a tester", async () => {
    const noExport = await propose(`export const other = 1;\n`);
    expect(noExport).toMatchObject({ ok: false, kind: "not_a_function" });
    expect(noExport.ok ? "" : noExport.reason).toContain("not exported");
    const absent = await propose(null);
    expect(absent).toMatchObject({ ok: false, kind: "load_error" });
  });

  it("reports a tester that allocates until the OOM killer ends it", async () => {
    const tester = `export async function propose() { const keep = []; for (;;) { const b = Buffer.alloc(16 << 20); b.fill(1); keep.push(b); } }\n`;
    const answer = await propose(tester, { limits: { memoryBytes: 128 << 20 } });
    expect(answer).toMatchObject({ ok: false, kind: "oom" });
  });

  it("reports junk on stdout as a protocol violation", async () => {
    const answer = await propose(`import { writeSync } from "node:fs"; export async function propose() { writeSync(1, "not json\\n"); return []; }\n`);
    expect(answer).toMatchObject({ ok: false, kind: "protocol" });
  });

  it("reports a tester that exits the process as a crash", async () => {
    const answer = await propose(`export async function propose() { process.exit(3); }\n`);
    expect(answer).toMatchObject({ ok: false, kind: "crash" });
    expect(answer.ok ? "" : answer.reason).toContain("code 3");
  });
});
