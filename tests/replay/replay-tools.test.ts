/**
 * A tool-calling lineage, replayed: an `evolve run` of the seed with a scripted model that
 * works through tool calls (read, replace, finish), then `evolve replay` of its deepest
 * child from the recorded answers alone (the server is closed first), which must reproduce
 * every self-modification and score.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRun, readTranscript, type GenerationRecord } from "../../harness/src/archive/index.js";
import { startRun } from "../../harness/src/evolution/index.js";
import { replayLineage } from "../../harness/src/replay/index.js";
import { memorySink, readAllText } from "../evolution/run-helpers.js";
import { startScriptedOpenAIServer, type RecordedRequest, type ScriptedReply } from "../support/scripted-openai-server.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";

const RUN = "replay-tools";
const SOLVER = "task/email-validation.ts";
const SECRET = `sk-test-${Math.random().toString(36).slice(2)}-do-not-leak`;
let env: TestEngine;
let out: string;
let runDir: string;
let generations: GenerationRecord[];

/**
 * A model that reads the solver, flips the first flag still false (from the solver text in its
 * briefing, so every parent gets its own edit), and finishes: the same answer for the same question.
 */
function model(request: RecordedRequest): ScriptedReply {
  const messages = request.body?.messages ?? [];
  const last = messages.at(-1);
  if (last?.role === "tool") return { content: null, toolCalls: [{ name: "finish", arguments: JSON.stringify({ summary: "stricter validation: one more check on" }) }], promptTokens: 900, completionTokens: 20 };
  const briefing = String(messages[1]?.content ?? "");
  const flag = /^ {2}\w+: false, \/\/ evolve:flag$/m.exec(briefing)?.[0];
  if (flag === undefined) return { content: "Nothing left to switch on.", promptTokens: 800, completionTokens: 8 };
  return {
    content: "Switching on one more check.",
    toolCalls: [
      { name: "read_file", arguments: JSON.stringify({ path: SOLVER, startLine: 1, endLine: 30 }) },
      { name: "replace_in_file", arguments: JSON.stringify({ path: SOLVER, search: flag, replace: flag.replace("false", "true") }) },
    ],
    promptTokens: 800,
    completionTokens: 90,
  };
}

beforeAll(async () => {
  env = await memoryEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-replay-tools-"));
  const server = await startScriptedOpenAIServer(model);
  try {
    await startRun(
      { generations: 2, workers: 1, seed: 11, out, runId: RUN, model: "scripted-model" },
      { sink: memorySink(), signal: new AbortController().signal, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: SECRET }, engine: env.engine, session: env.session },
    );
    expect(server.chatRequests().length).toBeGreaterThanOrEqual(4);
    expect(server.chatRequests()[0]?.headers["authorization"]).toBe(`Bearer ${SECRET}`);
  } finally {
    await server.close();
  }
  runDir = join(out, RUN);
  generations = (await readRun(runDir)).generations;
}, 300_000);

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("evolve replay of a tool-calling lineage", { timeout: 300_000 }, () => {
  it("records tool calls and results, and reproduces the lineage from the recorded answers", async () => {
    const children = generations.filter((g) => g.parent !== null);
    expect(children.map((g) => g.status.kind)).toEqual(["valid", "valid"]);
    for (const child of children) expect(child.summary).toMatch(/^llm-tools: stricter validation: one more check on \[edited task\/email-validation\.ts; format: native tool calls ×2; 2 turns\]$/);

    const transcript = await readTranscript(runDir, children[0]!.id);
    expect(transcript.problems).toEqual([]);
    const llm = transcript.entries.filter((e) => e.kind === "llm");
    expect(llm).toHaveLength(2);
    expect(llm[0]).toMatchObject({ outcome: "ok", response: { toolCalls: [{ name: "read_file" }, { name: "replace_in_file" }], finishReason: "tool_calls" } });
    const results = (llm[1]?.["request"] as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === "tool");
    expect(results.map((m) => m.content.split("\n")[0])).toEqual([`${SOLVER}, lines 1-30 of ${results[0]?.content.match(/of (\d+):/)?.[1]}:`, `replaced ${SOLVER}`]);

    // Tool calls and results travel the same broker: the key is in none of the run's files.
    expect((await readAllText(runDir)).filter((f) => f.text.includes(SECRET)).map((f) => f.path)).toEqual([]);

    const tip = [...children].sort((a, b) => b.depth - a.depth)[0]!;
    const report = await replayLineage({ runDir, generation: tip.id, engine: env.engine, session: env.session });
    expect(report.rebuild).toEqual({ ok: true });
    for (const check of report.selfModify) expect(check, check.detail).toMatchObject({ same: true });
    expect(report.selfModify.map((c) => c.detail)).toEqual(report.selfModify.map(() => `same patch (${SOLVER} +1 −1)`));
    expect(report.verdict).toEqual({ kind: "reproduced" });
    expect(await env.engine.countManaged(env.session)).toEqual({ containers: 0, volumes: 0 });
  });
});
