import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiPort, resolveLlmSetup, type LlmSetup, type RetryPolicy } from "../../harness/src/llm/index.js";
import { startScriptedOpenAIServer, type Script, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";

// The real openai adapter against the shared scripted server: retries, timeouts, usage.
const FAST_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 };
const ASK = { messages: [{ role: "user" as const, content: "Say hello." }], maxTokens: 64 };

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function portFor(script: Script, options: { timeoutMs?: number; retry?: RetryPolicy } = {}) {
  server = await startScriptedOpenAIServer(script);
  const setup = resolveLlmSetup(
    { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-port-test-key" },
    { model: "gpt-4o-mini", timeoutMs: options.timeoutMs ?? 5_000, retry: options.retry ?? FAST_RETRY },
  );
  if (!setup.available) throw new Error("setup should be available");
  return { port: createOpenAiPort(setup), server };
}

describe("openai port", () => {
  it("completes a round trip and reports the endpoint's usage", async () => {
    const { port, server } = await portFor([{ content: "Hello!", promptTokens: 21, completionTokens: 4 }]);
    const result = await port.complete({ ...ASK, temperature: 0.2 });
    expect(result).toMatchObject({ ok: true, attempts: 1, completion: { content: "Hello!", promptTokens: 21, completionTokens: 4, usageEstimated: false } });
    const body = server.chatRequests()[0]?.body;
    expect(body?.model).toBe("gpt-4o-mini");
    expect(body?.max_tokens).toBe(64);
    expect(body?.temperature).toBe(0.2);
    expect(body?.messages).toEqual([{ role: "user", content: "Say hello." }]);
  });

  it("retries a 429 then succeeds, counting attempts", async () => {
    const { port, server } = await portFor([
      { kind: "error", status: 429, message: "slow down" },
      { kind: "error", status: 429, message: "slow down" },
      { content: "finally", promptTokens: 5, completionTokens: 1 },
    ]);
    const result = await port.complete(ASK);
    expect(result.ok).toBe(true);
    expect(result.attempts).toBe(3);
    expect(server.chatRequests()).toHaveLength(3);
  });

  it("gives up after the bounded attempts on repeated 500s with a clear error", async () => {
    const { port, server } = await portFor((_req) => ({ kind: "error", status: 500, message: "boom" }));
    const result = await port.complete(ASK);
    expect(result).toMatchObject({ ok: false, kind: "http", status: 500, attempts: 3 });
    if (result.ok) return;
    expect(result.error).toMatch(/LLM call failed after 3 attempts: HTTP 500/);
    expect(result.error).toContain("boom");
    expect(server.chatRequests()).toHaveLength(3);
  });

  it("does not retry a 400", async () => {
    const { port, server } = await portFor([{ kind: "error", status: 400, message: "bad request" }]);
    const result = await port.complete(ASK);
    expect(result).toMatchObject({ ok: false, status: 400, attempts: 1 });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("retries a dropped connection", async () => {
    const { port } = await portFor([{ kind: "disconnect" }, { content: "ok", promptTokens: 1, completionTokens: 1 }]);
    const result = await port.complete(ASK);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
  });

  it("times out each attempt at the per-call timeout", async () => {
    const { port, server } = await portFor((_req) => ({ content: "too late", delayMs: 5_000 }), {
      timeoutMs: 200,
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
    });
    const started = Date.now();
    const result = await port.complete(ASK);
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ ok: false, kind: "timeout", attempts: 2 });
    if (!result.ok) expect(result.error).toMatch(/timed out after 200 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(elapsed).toBeLessThan(3_000);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it("estimates usage (chars/4) and says so when the endpoint omits it", async () => {
    const content = "x".repeat(40);
    const { port } = await portFor([{ content, omitUsage: true }]);
    const result = await port.complete(ASK);
    expect(result).toMatchObject({ ok: true, completion: { usageEstimated: true, completionTokens: 10 } });
    if (result.ok) expect(result.completion.promptTokens).toBeGreaterThan(0);
  });

  it("honours retry-after within the backoff cap", async () => {
    const { port } = await portFor(
      [
        { kind: "error", status: 429, retryAfterSeconds: 0.3 },
        { content: "ok", promptTokens: 1, completionTokens: 1 },
      ],
      { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1_000 } },
    );
    const started = Date.now();
    const result = await port.complete(ASK);
    expect(result.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("leaves no listener on the caller's signal after its calls, and still stops a call when that signal aborts", async () => {
    // The openai client never removes the listener it adds to a request's signal (openai/openai-node#1811).
    const { port, server } = await portFor((req) => (req.body?.messages?.at(-1)?.content === "wait" ? { content: "late", delayMs: 5_000 } : { content: "ok" }));
    const caller = new AbortController();
    for (let i = 0; i < 12; i++) expect((await port.complete(ASK, { signal: caller.signal })).ok).toBe(true);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    const started = Date.now();
    const pending = port.complete({ ...ASK, messages: [{ role: "user", content: "wait" }] }, { signal: caller.signal });
    setTimeout(() => caller.abort(), 200);
    const result = await pending;
    expect(result.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expect(server.chatRequests()).toHaveLength(13);
  });
});

describe("LLM setup", () => {
  it("is offline when neither a key nor a base URL is set", () => {
    const setup: LlmSetup = resolveLlmSetup({}, {});
    expect(setup.available).toBe(false);
  });

  it("accepts a keyless local server and rejects a malformed base URL", () => {
    expect(resolveLlmSetup({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }, { model: "llama3" })).toMatchObject({ available: true, apiKey: null, price: null });
    expect(() => resolveLlmSetup({ OPENAI_BASE_URL: "ftp://x" })).toThrow(/not an http/);
    expect(() => resolveLlmSetup({ OPENAI_API_KEY: "k" }, { timeoutMs: -1 })).toThrow(/invalid LLM options/);
  });
});
