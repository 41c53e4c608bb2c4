/**
 * The solve-time replay port: recorded through the real client and broker (the scripted
 * server), then served by what each call asks, in any order, without an endpoint.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BudgetLedger, LlmBroker, UNLIMITED, createKeyedReplayPort, createOpenAiPort, parseTranscript, resolveLlmSetup, serializeTranscript, type LlmPort, type TranscriptEntry } from "../../harness/src/llm/index.js";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = (content: string) => ({ messages: [{ role: "user", content }], maxTokens: 200 });

function brokerOver(port: LlmPort): LlmBroker {
  return new LlmBroker({ port, model: port.model, price: null, generationLimits: UNLIMITED, runLedger: new BudgetLedger("run", UNLIMITED) });
}

/** "a" twice (two different answers), then "b"; as the transcript file has them. */
async function record(): Promise<TranscriptEntry[]> {
  server = await startScriptedOpenAIServer((req, i) => ({ content: `answer ${i} to ${String(req.body?.messages?.[0]?.content)}`, promptTokens: 10, completionTokens: 2 }));
  const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-keyed" }, { model: "scripted-model" });
  if (!setup.available) throw new Error("setup should be available");
  const broker = brokerOver(createOpenAiPort(setup));
  for (const q of ["a", "a", "b"]) await broker.onLlm(ask(q));
  const { entries, problems } = parseTranscript(serializeTranscript(broker.transcript()));
  expect(problems).toEqual([]);
  return entries;
}

const content = (answer: unknown): string => ((answer as { response?: { content?: string } }).response?.content ?? JSON.stringify(answer));

describe("keyed replay port", () => {
  it("answers by request in any order, the same question's answers in recorded order, without an endpoint", async () => {
    const entries = await record();
    const sent = server?.requests.length;
    const port = createKeyedReplayPort(entries);
    const broker = brokerOver(port);
    expect(content(await broker.onLlm(ask("b")))).toBe("answer 2 to b");
    expect(content(await broker.onLlm(ask("a")))).toBe("answer 0 to a");
    expect(content(await broker.onLlm(ask("a")))).toBe("answer 1 to a");
    expect(port.divergence).toBeNull();
    expect(port.remaining()).toBe(0);
    expect(server?.requests.length).toBe(sent);
  });

  it("calls a question nobody recorded (or asked once too often) a divergence, and fails every call after it", async () => {
    const entries = await record();
    const port = createKeyedReplayPort(entries);
    const broker = brokerOver(port);
    expect(await broker.onLlm(ask("c"))).toMatchObject({ ok: false, code: "replay_divergence" });
    expect(port.divergence).toMatch(/^replay divergence at solve-time LLM call #1: no recorded call asks this \(3 recorded, 3 unused; its first user message begins "c"\)/);
    expect(await broker.onLlm(ask("b"))).toMatchObject({ ok: false, code: "replay_divergence" });
    const again = createKeyedReplayPort(entries);
    const second = brokerOver(again);
    for (const q of ["b", "b"]) await second.onLlm(ask(q));
    expect(again.divergence).toMatch(/call #2: no recorded call asks this/);
  });
});
