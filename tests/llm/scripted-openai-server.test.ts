import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";

// The shared test double itself: the real openai client must understand what it serves.
describe("scripted OpenAI-compatible server", () => {
  let server: ScriptedOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("serves scripted completions, errors and models to the real openai client and records requests", async () => {
    server = await startScriptedOpenAIServer([
      { content: "first", promptTokens: 11, completionTokens: 2 },
      { kind: "error", status: 503, message: "overloaded" },
      (req) => ({ content: `echo:${String(req.body?.messages?.[0]?.content)}` }),
    ]);
    const client = new OpenAI({ apiKey: "sk-test-server", baseURL: server.baseURL, maxRetries: 0 });

    const first = await client.chat.completions.create({ model: "m1", messages: [{ role: "user", content: "hi" }] });
    expect(first.choices[0]?.message.content).toBe("first");
    expect(first.usage?.prompt_tokens).toBe(11);
    expect(first.usage?.completion_tokens).toBe(2);

    await expect(client.chat.completions.create({ model: "m1", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 503 });

    const third = await client.chat.completions.create({ model: "m1", messages: [{ role: "user", content: "ping" }] });
    expect(third.choices[0]?.message.content).toBe("echo:ping");

    // Exhausted list → 400 with a clear reason.
    await expect(client.chat.completions.create({ model: "m1", messages: [{ role: "user", content: "y" }] })).rejects.toThrow(/script exhausted/);

    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain("scripted-model");

    expect(server.chatRequests()).toHaveLength(4);
    expect(server.requests).toHaveLength(5);
    expect(server.requests[0]?.headers["authorization"]).toBe("Bearer sk-test-server");
    expect(server.requests[0]?.body?.model).toBe("m1");
  });

  it("can omit usage, delay and disconnect", async () => {
    server = await startScriptedOpenAIServer([{ content: "no usage", omitUsage: true }, { kind: "disconnect" }, { content: "slow", delayMs: 2_000 }]);
    const client = new OpenAI({ apiKey: "k", baseURL: server.baseURL, maxRetries: 0, timeout: 300 });
    const r = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "a" }] });
    expect(r.usage).toBeUndefined();
    await expect(client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "b" }] })).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
    await expect(client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "c" }] })).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });
});
