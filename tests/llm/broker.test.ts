import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  BudgetLedger,
  LlmBroker,
  UNLIMITED,
  createGenerationBroker,
  createOpenAiPort,
  parseTranscript,
  resolveLlmSetup,
  serializeTranscript,
  type BudgetLimits,
} from "../../harness/src/llm/index.js";
import type { LlmErrorCode, WireLlmAnswer, WireLlmResponse } from "../../harness/src/kernel/index.js";
import { startScriptedOpenAIServer, type Script, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";

// The broker as the evolution loop uses it: real openai client, scripted endpoint.
let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = `sk-test-${Math.random().toString(36).slice(2)}-secret`;
const hello = { messages: [{ role: "user", content: "Improve the agent." }], maxTokens: 300 };

async function brokerFor(script: Script, budgets: { generation?: BudgetLimits; run?: BudgetLedger; model?: string } = {}) {
  server = await startScriptedOpenAIServer(script);
  const setup = resolveLlmSetup(
    { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY },
    { model: budgets.model ?? "gpt-4o-mini", timeoutMs: 5_000, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 } },
  );
  if (!setup.available) throw new Error("setup should be available");
  const runLedger = budgets.run ?? new BudgetLedger("run", UNLIMITED);
  const broker = new LlmBroker({
    port: createOpenAiPort(setup),
    model: setup.model,
    price: setup.price,
    generationLimits: budgets.generation ?? UNLIMITED,
    // No `secrets` here: the adapter's own redaction must be enough.
    runLedger,
  });
  return { broker, server, runLedger, setup };
}

/** The refusal an answer carries (the agent's call rejects with it); fails the test on a response. */
async function refusal(answer: Promise<WireLlmAnswer>): Promise<{ code: LlmErrorCode; message: string }> {
  const got = await answer;
  if (got.ok) throw new Error(`expected a refusal, got a response: ${JSON.stringify(got.response)}`);
  return { code: got.code, message: got.error };
}

async function response(answer: Promise<WireLlmAnswer>): Promise<WireLlmResponse> {
  const got = await answer;
  if (!got.ok) throw new Error(`expected a response, got ${got.code}: ${got.error}`);
  return got.response;
}

describe("LLM broker", () => {
  it("answers the agent and records tokens, cost and latency", async () => {
    const { broker } = await brokerFor([{ content: "edit: x=2", promptTokens: 1_000, completionTokens: 500 }]);
    const reply = await broker.onLlm(hello);
    expect(reply).toEqual({ ok: true, response: { content: "edit: x=2", toolCalls: [], finishReason: "stop", promptTokens: 1_000, completionTokens: 500 } });
    const [entry] = broker.transcript();
    // gpt-4o-mini: $0.15 in / $0.60 out per 1M tokens.
    expect(entry).toMatchObject({ kind: "llm", outcome: "ok", model: "gpt-4o-mini", attempts: 1, promptTokens: 1_000, completionTokens: 500 });
    if (entry?.kind !== "llm") throw new Error("expected an llm entry");
    expect(entry.costUsd).toBeCloseTo(0.00045, 10);
    expect(entry.latencyMs).toBeGreaterThanOrEqual(0);
    expect(entry.request?.maxTokens).toBe(300);
    expect(broker.usage()).toMatchObject({ calls: 1, promptTokens: 1_000, completionTokens: 500, estimated: false });
  });

  it("records a failed call with its attempts and rejects with the reason", async () => {
    const { broker } = await brokerFor((_r) => ({ kind: "error", status: 503, message: "overloaded" }));
    const err = await refusal(broker.onLlm(hello));
    expect(err.code).toBe("endpoint_failed");
    expect(err.message).toMatch(/failed after 2 attempts: HTTP 503/);
    expect(broker.transcript()[0]).toMatchObject({ outcome: "failed", failureKind: "http", attempts: 2, error: err.message, code: "endpoint_failed" });
  });

  it("refuses a call over the generation budget before sending it", async () => {
    const { broker, server } = await brokerFor([{ content: "never sent" }], { generation: { tokens: 100, usd: null } });
    const err = await refusal(broker.onLlm(hello));
    expect(err.code).toBe("budget_exhausted");
    expect(err.message).toMatch(/LLM budget exhausted: the generation budget has 100 tokens left/);
    expect(err.message).toMatch(/No request was sent/);
    expect(server.chatRequests()).toHaveLength(0);
    expect(broker.transcript()[0]).toMatchObject({ outcome: "refused", attempts: 0 });
  });

  it("shrinks maxTokens to what the budget still allows", async () => {
    const { broker, server } = await brokerFor([{ content: "a", promptTokens: 10, completionTokens: 1 }], { generation: { tokens: 700, usd: null } });
    await broker.onLlm({ ...hello, maxTokens: 4_000 });
    const sent = server.chatRequests()[0]?.body?.max_tokens;
    expect(sent).toBeGreaterThanOrEqual(256);
    expect(sent).toBeLessThan(700);
  });

  it("enforces a dollar budget when the price is known", async () => {
    // 1,000,000 prompt tokens of gpt-4o-mini cost $0.15: a $0.0001 budget fits no call of this size.
    const { broker, server } = await brokerFor([{ content: "x" }], { generation: { tokens: null, usd: 0.0001 } });
    const big = { messages: [{ role: "user", content: "y".repeat(3_000) }], maxTokens: 1_000 };
    const err = await refusal(broker.onLlm(big));
    expect(err.message).toMatch(/budget exhausted.*\$0\.0001/);
    expect(server.chatRequests()).toHaveLength(0);
  });

  it("refuses a dollar budget for a model without a known price", async () => {
    await expect(brokerFor([], { generation: { tokens: null, usd: 1 }, model: "my-local-llama" })).rejects.toThrow(/price of model "my-local-llama" is unknown/);
  });

  it("shares the run budget across generations, never overspends it, and reports when it is spent", async () => {
    const run = new BudgetLedger("run", { tokens: 1_900, usd: null });
    // 1,200 characters ≈ 300 real tokens; the broker reserves conservatively (chars/3) before sending.
    const ask = { messages: [{ role: "user", content: "y".repeat(1_200) }], maxTokens: 256 };
    const { broker, server } = await brokerFor((_r) => ({ content: "ok", promptTokens: 300, completionTokens: 256 }), { run });
    await broker.onLlm(ask);
    expect(run.spent.tokens).toBe(556);
    expect(broker.runBudgetSpent).toBe(false);
    // A second generation's broker on the same run ledger.
    const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY }, { timeoutMs: 5_000 });
    if (!setup.available) throw new Error("setup should be available");
    const second = new LlmBroker({ port: createOpenAiPort(setup), model: setup.model, price: setup.price, generationLimits: UNLIMITED, runLedger: run });
    await second.onLlm(ask);
    await second.onLlm(ask);
    expect(run.spent.tokens).toBe(1_668);
    expect(second.runBudgetSpent).toBe(true);
    expect(broker.runBudgetSpent).toBe(true);
    const err = await refusal(second.onLlm(ask));
    expect(err.message).toMatch(/the run budget has 232 tokens left/);
    expect(server.chatRequests()).toHaveLength(3);
    expect(run.spent.tokens).toBeLessThanOrEqual(1_900);
  });

  it("never lets the API key reach transcripts, errors or replies", async () => {
    const { broker, server, setup } = await brokerFor([
      { content: "fine", promptTokens: 3, completionTokens: 1 },
      // A hostile or careless endpoint that echoes the credential back.
      (req) => ({ kind: "error", status: 401, message: `invalid key: ${req.headers["authorization"] ?? ""}` }),
    ]);
    const reply = await broker.onLlm(hello);
    const err = await refusal(broker.onLlm(hello));
    expect(server.chatRequests()[0]?.headers["authorization"]).toBe(`Bearer ${KEY}`);
    expect(err.message).toContain("invalid key");
    const surfaces = [JSON.stringify(reply), err.message, serializeTranscript(broker.transcript()), JSON.stringify(setup), inspect(setup, { depth: 5 })];
    for (const text of surfaces) expect(text).not.toContain(KEY);
  });

  it("rejects hostile requests with a reason and sends nothing", async () => {
    const { broker, server } = await brokerFor([]);
    const cases: [unknown, RegExp][] = [
      [{ messages: "hi" }, /malformed LLM request/],
      [{ messages: [{ role: "root", content: "x" }] }, /malformed LLM request/],
      [{ messages: [{ role: "user", content: 42 }] }, /malformed LLM request/],
      [{ messages: [] }, /at least one message/],
      [{ messages: [{ role: "user", content: "x" }], temperature: 99 }, /malformed/],
      [null, /malformed/],
      [{ messages: [{ role: "user", content: "x".repeat(10 * 1024 * 1024) }] }, /request too large: 10485760 characters/],
      [{ messages: Array.from({ length: 10_000 }, () => ({ role: "user", content: "x" })) }, /too many messages: 10000/],
    ];
    for (const [request, reason] of cases) {
      const err = await refusal(broker.onLlm(request));
      expect(err.code).toBe("invalid_request");
      expect(err.message).toMatch(reason);
      expect(err.message.length).toBeLessThan(1_000);
    }
    expect(server.chatRequests()).toHaveLength(0);
    expect(broker.transcript().every((e) => e.kind === "llm" && e.outcome === "invalid" && e.request === null)).toBe(true);
    // The 10 MB content is not copied into the transcript.
    expect(serializeTranscript(broker.transcript()).length).toBeLessThan(20_000);
  });

  it("clamps maxTokens into range", async () => {
    const { broker, server } = await brokerFor((_r) => ({ content: "ok", promptTokens: 1, completionTokens: 1 }));
    await broker.onLlm({ ...hello, maxTokens: 1e12 });
    await broker.onLlm({ ...hello, maxTokens: -5 });
    expect(server.chatRequests().map((r) => r.body?.max_tokens)).toEqual([4_096, 1]);
  });

  it("refuses every call when offline, and records tool events", async () => {
    const setup = resolveLlmSetup({}, {});
    const broker = createGenerationBroker({ setup, runLedger: new BudgetLedger("run", UNLIMITED), generationLimits: UNLIMITED });
    expect(setup.available).toBe(false);
    expect(await refusal(broker.onLlm(hello))).toMatchObject({ code: "unavailable", message: expect.stringMatching(/offline/) });
    broker.onTool({ type: "tool", name: "write", path: "meta/index.ts", ok: true, error: null });
    broker.onTool({ type: "tool", name: "replace", path: "task/x.ts", ok: false, error: "search text occurs 0 times" });
    const text = serializeTranscript(broker.transcript());
    const { entries, problems } = parseTranscript(`${text}{"kind":"nope"}\nnot json\n`);
    expect(entries.map((e) => e.kind)).toEqual(["llm", "tool", "tool"]);
    expect(entries[2]).toMatchObject({ kind: "tool", name: "replace", ok: false, error: "search text occurs 0 times" });
    expect(problems.map((p) => p.line)).toEqual([4, 5]);
  });
});

describe("LLM broker concurrency and shutdown", () => {
  it("sends at most maxConcurrent calls at once; the rest wait their turn", async () => {
    // Each call holds the server for 100 ms from its arrival, so arrival times show how many were in flight.
    const arrivals: number[] = [];
    server = await startScriptedOpenAIServer((_r) => {
      arrivals.push(performance.now());
      return { content: "ok", promptTokens: 1, completionTokens: 1, delayMs: 100 };
    });
    const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY }, { timeoutMs: 5_000 });
    if (!setup.available) throw new Error("setup should be available");
    const broker = new LlmBroker({ port: createOpenAiPort(setup), model: setup.model, price: setup.price, generationLimits: UNLIMITED, runLedger: new BudgetLedger("run", UNLIMITED), maxConcurrent: 2 });
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: 6 }, () => broker.onLlm(hello)));
    expect(replies).toHaveLength(6);
    // 6 calls of 100 ms, 2 at a time: at least 3 rounds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.chatRequests()).toHaveLength(6);
    expect(arrivals).toHaveLength(6);
    // Never a third call while two are in flight, and two did run at once.
    const inFlightAt = arrivals.map((t) => arrivals.filter((u) => u <= t && t - u < 95).length);
    expect(Math.max(...inFlightAt)).toBe(2);
  });

  it("aborts calls in flight on close and refuses later ones", async () => {
    server = await startScriptedOpenAIServer((_r) => ({ content: "late", delayMs: 10_000 }));
    const { broker } = await (async () => {
      const setup = resolveLlmSetup({ OPENAI_BASE_URL: server?.baseURL, OPENAI_API_KEY: KEY }, { timeoutMs: 20_000 });
      if (!setup.available) throw new Error("setup should be available");
      return { broker: new LlmBroker({ port: createOpenAiPort(setup), model: setup.model, price: null, generationLimits: UNLIMITED, runLedger: new BudgetLedger("run", UNLIMITED) }) };
    })();
    const pending = broker.onLlm(hello);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    broker.close();
    expect(await refusal(pending)).toMatchObject({ code: "unavailable", message: expect.stringMatching(/abort/) });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await refusal(broker.onLlm(hello))).toMatchObject({ code: "unavailable", message: expect.stringMatching(/the generation is over/) });
  });
});
