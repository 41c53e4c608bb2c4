/**
 * 16: a hostile meta agent against the LLM path (real broker, real openai client, scripted
 * endpoint): malformed and huge tool definitions, tool messages answering calls nobody made,
 * requests that cannot be serialised or are deeper than any host walk should go, and a flood
 * of 2,000 calls at once. Each must come back to the agent as a refusal with a code; none may
 * reach the endpoint, end the container, or grow the transcript without bound; afterwards an
 * honest tool-calling request is still answered.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { BudgetLedger, createOpenAiPort, LlmBroker, resolveLlmSetup, serializeTranscript, UNLIMITED } from "../../../harness/src/llm/index.js";
import { runImprove } from "../../../sandbox/src/index.js";
import { startScriptedOpenAIServer } from "../../support/scripted-openai-server.js";
import { writeCandidate } from "../support/candidate.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const HOSTILE_META = `export async function improve(request, ctx) {
  const codes = {};
  const count = (label, code) => { const key = label + ":" + code; codes[key] = (codes[key] ?? 0) + 1; };
  const ask = async (label, req) => {
    try { const r = await ctx.llm.complete(req); count(label, "answered"); return r; }
    catch (e) { count(label, e instanceof Error && typeof e.code === "string" ? e.code : "no-code"); return null; }
  };
  const user = { role: "user", content: "hi" };
  const tool = (name, parameters) => ({ name, description: "t", parameters });
  let deep = { type: "string" };
  for (let i = 0; i < 5000; i++) deep = { type: "object", properties: { x: deep } };
  const throwing = { messages: [user] };
  Object.defineProperty(throwing, "tools", { enumerable: true, get() { throw new Error("gotcha"); } });
  const malformed = [
    { messages: [user], tools: [tool("a".repeat(5000), {})] },
    { messages: [user], tools: [tool("x", "not an object")] },
    { messages: [user], tools: [tool("x", deep)] },
    { messages: [user], tools: Array.from({ length: 20000 }, (_, i) => tool("t" + i, {})) },
    { messages: [user], tools: [tool("x", {}), tool("x", {})] },
    { messages: [user], toolChoice: { name: "x" } },
    { messages: [user], tools: [tool("x", {})], toolChoice: { type: "function", function: { name: "x" } } },
    { messages: [user, { role: "tool", toolCallId: "call_nobody_made", content: "pwned" }] },
    { messages: [user, { role: "tool", content: "no id" }] },
    { messages: [user, { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "x", arguments: {} }] }] },
    { messages: [user, { role: "assistant", content: "", toolCalls: Array.from({ length: 30000 }, (_, i) => ({ id: "c" + i, name: "x", arguments: "{}" })) }] },
    { messages: [user], tools: [{ name: "big", description: "d".repeat(900000) }] },
    { messages: [user], tools: [{ name: "huge", description: "d".repeat(5 * 1024 * 1024) }] },
    { messages: [{ role: "system", content: "x" }], maxTokens: 10n },
    throwing,
  ];
  for (const req of malformed) await ask("malformed", req);
  const flood = Array.from({ length: 2000 }, () => ask("flood", { messages: [user], tools: [tool("x", { type: "object" })] }));
  await Promise.all(flood);
  const honest = await ask("honest", { messages: [user], tools: [tool("read_file", { type: "object", properties: { path: { type: "string" } } })] });
  return { summary: JSON.stringify({ codes, honest: honest && honest.toolCalls }), changedFiles: [] };
}
`;

export async function hostileLlmRequests(c: CaseContext): Promise<CaseVerdict> {
  const server = await startScriptedOpenAIServer(() => ({ content: null, toolCalls: [{ id: "call_ok", name: "read_file", arguments: '{"path":"task/index.ts"}' }], delayMs: 20 }));
  const build = await writeCandidate(`export async function solve(input) { return input; }\n`, { "meta/index.js": HOSTILE_META });
  const agent = new URL("../../fixtures/validation/base/", import.meta.url).pathname;
  const takeTo = join(await mkdtemp(`${build}-`), "tree");
  try {
    const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL }, { model: "scripted-model" });
    if (!setup.available) throw new Error(setup.reason);
    const broker = new LlmBroker({ port: createOpenAiPort(setup), model: setup.model, price: null, generationLimits: UNLIMITED, runLedger: new BudgetLedger("run", UNLIMITED) });
    const started = Date.now();
    const result = await runImprove({
      engine: c.env.engine, image: c.env.image, labels: c.labels, runtime: c.runtime, buildDir: build, agentDir: agent, takeTo, timeoutMs: 120_000,
      init: { task: "sec-sum", seed: 1, llmAvailable: true, deadline: Date.now() + 120_000, request: {} },
      onLlm: broker.onLlm,
    });
    broker.close();
    const containMs = Date.now() - started;
    expect(result.end, result.outcome.stderr.slice(-2000)).toBeNull();
    expect(result.outcome.stdoutTruncated).toBe(false);
    const report = JSON.parse((result.report as { summary: string }).summary) as { codes: Record<string, number>; honest: unknown };
    // Every malformed request is a refusal with the code for it; the flood beyond the broker's
    // 4 in flight and 32 waiting is refused as busy; the honest request is answered with its tool call.
    expect(report.codes["malformed:invalid_request"]).toBe(15);
    expect((report.codes["flood:answered"] ?? 0) + (report.codes["flood:busy"] ?? 0)).toBe(2000);
    expect(report.codes["flood:busy"]).toBeGreaterThanOrEqual(2000 - 4 - 32 - 64);
    expect(report.honest).toEqual([{ id: "call_ok", name: "read_file", arguments: '{"path":"task/index.ts"}' }]);
    // Nothing malformed reached the endpoint; the transcript of 2,000+ calls stays small.
    const sent = server.chatRequests();
    expect(sent.length).toBe((report.codes["flood:answered"] ?? 0) + 1);
    const transcriptBytes = serializeTranscript(broker.transcript()).length;
    expect(transcriptBytes).toBeLessThan(512 * 1024);
    return {
      outcome: `15/15 malformed refused (invalid_request), flood ${report.codes["flood:busy"]}/2000 busy, ${sent.length} calls reached the endpoint, transcript ${Math.round(transcriptBytes / 1024)} KiB; container lived`,
      containMs,
    };
  } finally {
    await server.close();
    await rm(build, { recursive: true, force: true });
    await rm(join(takeTo, ".."), { recursive: true, force: true });
  }
}
