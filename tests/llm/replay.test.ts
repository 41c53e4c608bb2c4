import { afterEach, describe, expect, it } from "vitest";
import {
  BudgetLedger,
  LlmBroker,
  UNLIMITED,
  createOpenAiPort,
  createReplayPort,
  parseTranscript,
  resolveLlmSetup,
  serializeTranscript,
  type LlmPort,
  type TranscriptEntry,
} from "../../harness/src/llm/index.js";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";

// Record a conversation through the real client, then replay it without any endpoint.
let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = (content: string) => ({ messages: [{ role: "system", content: "You edit code." }, { role: "user", content }], maxTokens: 300 });

function answer(content: string, promptTokens: number, completionTokens: number) {
  return { ok: true, response: { content, toolCalls: [], finishReason: "stop", promptTokens, completionTokens } };
}

function brokerOver(port: LlmPort): LlmBroker {
  return new LlmBroker({ port, model: port.model, price: null, generationLimits: UNLIMITED, runLedger: new BudgetLedger("run", UNLIMITED) });
}

async function record(): Promise<TranscriptEntry[]> {
  server = await startScriptedOpenAIServer([
    (req) => ({ content: `first answer to ${req.body?.messages?.length ?? 0} messages`, promptTokens: 30, completionTokens: 6 }),
    { kind: "error", status: 400, message: "context too long" },
    { content: "third answer", promptTokens: 40, completionTokens: 2 },
  ]);
  const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-replay-key" }, { model: "scripted-model", retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
  if (!setup.available) throw new Error("setup should be available");
  const broker = brokerOver(createOpenAiPort(setup));
  await broker.onLlm(user("one"));
  expect(await broker.onLlm(user("two"))).toMatchObject({ ok: false, code: "endpoint_failed", error: expect.stringMatching(/context too long/) });
  expect(await broker.onLlm({ messages: "garbage" })).toMatchObject({ ok: false, code: "invalid_request", error: expect.stringMatching(/malformed/) });
  await broker.onLlm(user("three"));
  // Through the file format, as `evolve replay` reads it.
  const { entries, problems } = parseTranscript(serializeTranscript(broker.transcript()));
  expect(problems).toEqual([]);
  return entries;
}

describe("replay port", () => {
  it("serves the recorded responses and failures in order, with the recorded usage", async () => {
    const entries = await record();
    const sentBefore = server?.requests.length;
    const replay = createReplayPort(entries);
    const broker = brokerOver(replay);
    expect(await broker.onLlm(user("one"))).toEqual(answer("first answer to 2 messages", 30, 6));
    expect(await broker.onLlm(user("two"))).toMatchObject({ ok: false, code: "endpoint_failed", error: expect.stringMatching(/context too long/) });
    expect(await broker.onLlm(user("three"))).toEqual(answer("third answer", 40, 2));
    expect(replay.divergence).toBeNull();
    expect(replay.remaining()).toBe(0);
    expect(server?.requests.length).toBe(sentBefore);
    expect(replay.model).toBe("scripted-model");
  });

  it("reports a divergent request clearly and keeps failing after it", async () => {
    const replay = createReplayPort(await record());
    const broker = brokerOver(replay);
    await broker.onLlm(user("one"));
    const err = await broker.onLlm(user("TWO, differently"));
    if (err.ok) throw new Error("expected a refusal");
    expect(err.code).toBe("replay_divergence");
    expect(err.error).toMatch(/replay divergence at LLM call #2: message 2 \(user\) content differs at character 0/);
    expect(err.error).toContain('recorded "two"');
    expect(await broker.onLlm(user("three"))).toMatchObject({ ok: false, code: "replay_divergence", error: expect.stringMatching(/replay divergence at LLM call #2/) });
    expect(broker.transcript().at(-1)).toMatchObject({ outcome: "failed", failureKind: "divergence" });
  });

  it("reports running out of recorded calls", async () => {
    const replay = createReplayPort(await record());
    const broker = brokerOver(replay);
    await broker.onLlm(user("one"));
    await broker.onLlm(user("two"));
    await broker.onLlm(user("three"));
    expect(await broker.onLlm(user("four"))).toMatchObject({ ok: false, error: expect.stringMatching(/replay divergence at LLM call #4: the transcript records only 3 call/) });
  });
});

describe("replay port, tool calling", () => {
  const tools = [{ name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } } } }];
  const ask = { role: "user", content: "Improve task/snake.ts." } as const;
  const call = { id: "call_1", name: "read_file", arguments: '{"path":"task/snake.ts"}' };
  const followUp = (result: string) => ({
    messages: [ask, { role: "assistant", content: "", toolCalls: [call] }, { role: "tool", toolCallId: "call_1", content: result }],
    tools,
  });

  async function recordToolCalls(): Promise<TranscriptEntry[]> {
    server = await startScriptedOpenAIServer([
      { content: null, toolCalls: [call], promptTokens: 50, completionTokens: 9 },
      { content: "Done.", promptTokens: 80, completionTokens: 2 },
      (req) => (req.body?.tools === undefined ? { content: "x" } : { kind: "error", status: 400, message: "tools are not supported" }),
    ]);
    const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL }, { model: "scripted-model", retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
    if (!setup.available) throw new Error("setup should be available");
    const broker = brokerOver(createOpenAiPort(setup));
    await broker.onLlm({ messages: [ask], tools });
    await broker.onLlm(followUp("export const params = { depth: 3 };"));
    expect(await broker.onLlm({ messages: [ask], tools })).toMatchObject({ ok: false, code: "tools_unsupported" });
    return parseTranscript(serializeTranscript(broker.transcript())).entries;
  }

  it("serves the recorded tool calls, and the recorded tools_unsupported refusal with its code", async () => {
    const replay = createReplayPort(await recordToolCalls());
    const broker = brokerOver(replay);
    expect(await broker.onLlm({ messages: [ask], tools })).toEqual({
      ok: true,
      response: { content: "", toolCalls: [call], finishReason: "tool_calls", promptTokens: 50, completionTokens: 9 },
    });
    expect(await broker.onLlm(followUp("export const params = { depth: 3 };"))).toMatchObject({ ok: true, response: { content: "Done." } });
    expect(await broker.onLlm({ messages: [ask], tools })).toMatchObject({ ok: false, code: "tools_unsupported" });
    expect(replay.divergence).toBeNull();
  });

  it("names a tool result or a tool definition that differs from the record", async () => {
    const entries = await recordToolCalls();
    const first = brokerOver(createReplayPort(entries));
    await first.onLlm({ messages: [ask], tools });
    const changedResult = await first.onLlm(followUp("export const params = { depth: 4 };"));
    expect(changedResult).toMatchObject({ ok: false, code: "replay_divergence", error: expect.stringMatching(/call #2: message 3 \(tool\) content differs at character 31/) });

    const second = brokerOver(createReplayPort(entries));
    const otherTools = await second.onLlm({ messages: [ask], tools: [{ ...tools[0]!, description: "Read one file." }] });
    expect(otherTools).toMatchObject({ ok: false, error: expect.stringMatching(/call #1: request tools differ at character \d+: recorded .*Read a file/) });
  });
});

describe("transcripts of version 1", () => {
  it("still read (no tool calls, a raw finish reason, no code) and replay", () => {
    const v1 = [
      { kind: "llm", at: "2026-11-20T10:00:00.000Z", model: "gpt-4o-mini", outcome: "ok", request: { messages: [{ role: "user", content: "hi" }], maxTokens: 300 },
        response: { content: "hello", finishReason: null, model: "gpt-4o-mini" }, error: null, failureKind: null, promptTokens: 3, completionTokens: 1, usageEstimated: false, costUsd: 0, latencyMs: 12, attempts: 1 },
      { kind: "llm", at: "2026-11-20T10:00:01.000Z", model: "gpt-4o-mini", outcome: "ok", request: { messages: [{ role: "user", content: "again" }], maxTokens: 300 },
        response: { content: "cut", finishReason: "length", model: "gpt-4o-mini" }, error: null, failureKind: null, promptTokens: 3, completionTokens: 300, usageEstimated: false, costUsd: 0, latencyMs: 12, attempts: 1 },
    ];
    const { entries, problems } = parseTranscript(v1.map((e) => JSON.stringify(e)).join("\n"));
    expect(problems).toEqual([]);
    expect(entries[0]).toMatchObject({ code: null, response: { content: "hello", toolCalls: [], finishReason: "other" } });
    expect(entries[1]).toMatchObject({ response: { finishReason: "length" } });
    const replay = createReplayPort(entries);
    return expect(replay.complete({ messages: [{ role: "user", content: "hi" }], maxTokens: 10 })).resolves.toMatchObject({ ok: true, completion: { content: "hello", toolCalls: [] } });
  });
});
