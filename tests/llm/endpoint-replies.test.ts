/**
 * Reasoning models, rate limits and absurd replies through the real openai client and the
 * shared scripted server: reasoning sent beside the content (or instead of it) is kept in the
 * transcript and counted, never lost or taken for a broken reply; Retry-After is honoured
 * beyond the backoff cap, and a wait the deadline or the cap does not allow fails the call at
 * once, saying why; a reply too big to be a model's is refused before it reaches the agent.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BudgetLedger, createOpenAiPort, LlmBroker, MAX_REPLY_CHARS, MAX_REPLY_TOOL_CALLS, resolveLlmSetup, serializeTranscript, UNLIMITED, type RetryPolicy } from "../../harness/src/llm/index.js";
import { startScriptedOpenAIServer, type Script, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";

const ASK = { messages: [{ role: "user" as const, content: "Say hello." }], maxTokens: 64 };
const THOUGHT = "Thinking about it at length... ".repeat(20);
const FAST: RetryPolicy = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50 };

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function portFor(script: Script, retry: RetryPolicy = FAST) {
  server = await startScriptedOpenAIServer(script);
  const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL }, { model: "scripted-model", retry });
  if (!setup.available) throw new Error(setup.reason);
  return { setup, port: createOpenAiPort(setup) };
}

describe("reasoning beside the content", () => {
  it("is kept in the transcript under either field name, counted, and an answer that is only reasoning is an empty answer", async () => {
    const { setup, port } = await portFor([
      { content: "hello", reasoning: "The user wants a greeting.", promptTokens: 10, completionTokens: 30 },
      { content: null, reasoning: THOUGHT, reasoningField: "reasoning", finishReason: "length", omitUsage: true },
      { content: null },
    ]);
    const broker = new LlmBroker({ port, model: setup.model, price: null, generationLimits: UNLIMITED, runLedger: new BudgetLedger("run", UNLIMITED) });
    expect(await broker.onLlm(ASK)).toMatchObject({ ok: true, response: { content: "hello" } });
    const second = await broker.onLlm(ASK);
    // The agent gets an empty reply cut at the limit, not an endpoint failure; it never sees the reasoning.
    expect(second).toMatchObject({ ok: true, response: { content: "", finishReason: "length" } });
    expect(JSON.stringify(second)).not.toContain("Thinking");
    // No content, no call and no reasoning is still a broken reply.
    expect(await broker.onLlm(ASK)).toMatchObject({ ok: false, code: "endpoint_failed" });

    const [first, thought] = broker.transcript().filter((e) => e.kind === "llm");
    expect(first).toMatchObject({ response: { reasoning: "The user wants a greeting." }, completionTokens: 30, reasoningTokens: 7 });
    expect(thought).toMatchObject({ usageEstimated: true, response: { content: "", reasoning: expect.stringMatching(/^Thinking about it/) } });
    // Without usage, the estimate counts the reasoning the endpoint generated.
    expect(thought?.kind === "llm" && thought.completionTokens).toBeGreaterThanOrEqual(Math.ceil(THOUGHT.length / 4));
    expect(thought?.kind === "llm" && thought.reasoningTokens).toBe(Math.ceil(THOUGHT.length / 4));
  });
});

describe("Retry-After", () => {
  it("is honoured beyond the backoff cap", async () => {
    const { port } = await portFor([{ kind: "error", status: 429, retryAfterSeconds: 1 }, { content: "ok" }]);
    const started = Date.now();
    const result = await port.complete(ASK);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it("past the call's deadline, or longer than evolve waits, fails the call at once, saying why", async () => {
    const { port } = await portFor([
      { kind: "error", status: 503, retryAfterSeconds: 30 },
      { kind: "error", status: 429, retryAfterSeconds: 3_600 },
    ]);
    let started = Date.now();
    const late = await port.complete(ASK, { deadline: Date.now() + 5_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(late).toMatchObject({ ok: false, attempts: 1, status: 503 });
    expect(!late.ok && late.error).toMatch(/asks to retry after 30 s, past this call's deadline/);
    started = Date.now();
    const long = await port.complete(ASK);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(!long.ok && long.error).toMatch(/asks to retry after 3600 s, longer than the 60 s evolve waits/);
  });
});

describe("a reply too big to be a model's", () => {
  it("is refused with the reason, neither forwarded nor recorded whole", async () => {
    const calls = Array.from({ length: MAX_REPLY_TOOL_CALLS + 1 }, () => ({ name: "list_files", arguments: "{}" }));
    const { setup, port } = await portFor([{ content: "x".repeat(MAX_REPLY_CHARS + 1) }, { content: null, toolCalls: calls }, { content: "x".repeat(MAX_REPLY_CHARS - 10) }], { ...FAST, maxAttempts: 1 });
    const broker = new LlmBroker({ port, model: setup.model, price: null, generationLimits: UNLIMITED, runLedger: new BudgetLedger("run", UNLIMITED) });
    const huge = await broker.onLlm(ASK);
    expect(huge).toMatchObject({ ok: false, code: "endpoint_failed", error: expect.stringContaining(`characters in one reply (at most ${MAX_REPLY_CHARS} are taken)`) });
    const many = await broker.onLlm(ASK);
    expect(many).toMatchObject({ ok: false, code: "endpoint_failed", error: expect.stringContaining(`returned ${MAX_REPLY_TOOL_CALLS + 1} tool calls in one reply`) });
    expect(await broker.onLlm(ASK)).toMatchObject({ ok: true });
    expect(serializeTranscript(broker.transcript()).length).toBeLessThan(MAX_REPLY_CHARS + 20_000);
  });
});
