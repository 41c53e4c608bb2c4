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
