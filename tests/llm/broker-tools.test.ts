/**
 * Tool calling through the broker, the real openai client and the shared scripted server:
 * what the endpoint receives, what the agent gets back, what the transcript keeps and how
 * the budget counts it; malformed tool requests refused with a reason before anything is sent.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BudgetLedger, LlmBroker, MAX_RECORDED_REFUSALS, UNLIMITED, createOpenAiPort, parseTranscript, resolveLlmSetup, serializeTranscript, type BudgetLimits } from "../../harness/src/llm/index.js";
import type { WireLlmAnswer, WireLlmRequest } from "../../harness/src/kernel/index.js";
import { startScriptedOpenAIServer, type Script, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function brokerFor(script: Script, options: { generation?: BudgetLimits; maxConcurrent?: number; maxWaiting?: number } = {}) {
  server = await startScriptedOpenAIServer(script);
  const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-tools-test" }, { model: "scripted-model", timeoutMs: 5_000, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 } });
  if (!setup.available) throw new Error("setup should be available");
  const broker = new LlmBroker({
    port: createOpenAiPort(setup),
    model: setup.model,
    price: null,
    generationLimits: options.generation ?? UNLIMITED,
    runLedger: new BudgetLedger("run", UNLIMITED),
    ...(options.maxConcurrent === undefined ? {} : { maxConcurrent: options.maxConcurrent }),
    ...(options.maxWaiting === undefined ? {} : { maxWaiting: options.maxWaiting }),
  });
  return { broker, server };
}

const TOOLS = [
  {
    name: "read_file",
    description: "Read a file of the agent tree.",
    parameters: { type: "object", properties: { path: { type: "string" }, startLine: { type: "integer" } }, required: ["path"] },
  },
  { name: "finish", description: "End with a one-line summary.", parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] } },
];
const ASK = { role: "user", content: "Raise the score of task/snake.ts." } as const;

function ok(answer: WireLlmAnswer) {
  if (!answer.ok) throw new Error(`expected a response, got ${answer.code}: ${answer.error}`);
  return answer.response;
}

describe("tool calling through the broker", () => {
  it("sends tools and tool results in OpenAI's shape and gives the agent text, several tool calls and the finish reason", async () => {
    const { broker, server } = await brokerFor([
      {
        content: "Let me look at the solver first.",
        toolCalls: [
          { id: "call_a", name: "read_file", arguments: '{"path":"task/snake.ts"}' },
          { id: "call_b", name: "read_file", arguments: '{"path":"task/index.ts","startLine":1}' },
        ],
        promptTokens: 210,
        completionTokens: 41,
      },
      { content: null, toolCalls: [{ id: "call_c", name: "finish", arguments: '{"summary":"nothing to change"}' }], promptTokens: 380, completionTokens: 12 },
    ]);
    const first = ok(await broker.onLlm({ messages: [ASK], tools: TOOLS, toolChoice: "auto", maxTokens: 500 }));
    expect(first).toEqual({
      content: "Let me look at the solver first.",
      toolCalls: [
        { id: "call_a", name: "read_file", arguments: '{"path":"task/snake.ts"}' },
        { id: "call_b", name: "read_file", arguments: '{"path":"task/index.ts","startLine":1}' },
      ],
      finishReason: "tool_calls",
      promptTokens: 210,
      completionTokens: 41,
    });
    const followUp: WireLlmRequest = {
      messages: [
        ASK,
        { role: "assistant", content: first.content, toolCalls: first.toolCalls },
        { role: "tool", toolCallId: "call_a", content: "export const params = { depth: 3 };" },
        { role: "tool", toolCallId: "call_b", content: "1| export { solve } from './solve.js';" },
      ],
      tools: TOOLS,
      toolChoice: { name: "finish" },
    };
    const second = ok(await broker.onLlm(followUp));
    expect(second).toMatchObject({ content: "", toolCalls: [{ id: "call_c", name: "finish" }], finishReason: "tool_calls" });

    const [sentFirst, sentSecond] = server.chatRequests().map((r) => JSON.parse(r.rawBody));
    expect(sentFirst.tools).toEqual(TOOLS.map((t) => ({ type: "function", function: t })));
    expect(sentFirst.tool_choice).toBe("auto");
    expect(sentSecond.tool_choice).toEqual({ type: "function", function: { name: "finish" } });
    expect(sentSecond.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: "Let me look at the solver first.",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"task/snake.ts"}' } },
          { id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path":"task/index.ts","startLine":1}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "export const params = { depth: 3 };" },
      { role: "tool", tool_call_id: "call_b", content: "1| export { solve } from './solve.js';" },
    ]);

    // The transcript keeps the tool calls and the tool results, and reads back through the file format.
    const { entries, problems } = parseTranscript(serializeTranscript(broker.transcript()));
    expect(problems).toEqual([]);
    const [one, two] = entries;
    expect(one).toMatchObject({ outcome: "ok", request: { tools: TOOLS, toolChoice: "auto" }, response: { toolCalls: first.toolCalls, finishReason: "tool_calls" } });
    expect(two).toMatchObject({ request: { messages: followUp.messages, toolChoice: { name: "finish" } }, response: { content: "", toolCalls: [{ id: "call_c" }] } });
    // Tool-calling calls count like any other.
    expect(broker.usage()).toMatchObject({ calls: 2, promptTokens: 590, completionTokens: 53 });
  });

  it("hands over the model's arguments as written, even when they are not JSON, and a reply cut at the token limit", async () => {
    const { broker } = await brokerFor([
      { content: null, toolCalls: [{ id: "call_x", name: "read_file", arguments: "{'path': task/snake.ts" }] },
      // Some local servers send arguments as an object and leave out the id.
      { content: null, toolCalls: [{ id: null, name: "read_file", arguments: { path: "task/snake.ts" } }] },
      { content: null, toolCalls: [{ id: "call_y", name: "write_file", arguments: '{"path":"task/snake.ts","content":"export const par' }], finishReason: "length" },
    ]);
    const request = { messages: [ASK], tools: TOOLS };
    expect(ok(await broker.onLlm(request)).toolCalls).toEqual([{ id: "call_x", name: "read_file", arguments: "{'path': task/snake.ts" }]);
    expect(ok(await broker.onLlm(request)).toolCalls).toEqual([{ id: "call_0", name: "read_file", arguments: '{"path":"task/snake.ts"}' }]);
    const cut = ok(await broker.onLlm(request));
    expect(cut.finishReason).toBe("length");
    expect(cut.toolCalls[0]?.arguments).toBe('{"path":"task/snake.ts","content":"export const par');
  });

  it("reports an endpoint that answers 400 to tools as tools_unsupported, and the same request without tools goes through", async () => {
    const { broker, server } = await brokerFor((req) =>
      req.body?.tools !== undefined
        ? { kind: "error", status: 400, message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' }
        : { content: "SUMMARY: fallback\n", promptTokens: 20, completionTokens: 4 },
    );
    const refused = await broker.onLlm({ messages: [ASK], tools: TOOLS });
    expect(refused).toMatchObject({ ok: false, code: "tools_unsupported", error: expect.stringMatching(/endpoint refused a request with tools \(.*HTTP 400.*enable-auto-tool-choice.*\).*retry without tools/) });
    // A 400 is not retried: one attempt.
    expect(server.chatRequests()).toHaveLength(1);
    expect(ok(await broker.onLlm({ messages: [ASK] })).content).toBe("SUMMARY: fallback\n");
    expect(broker.transcript()[0]).toMatchObject({ outcome: "failed", failureKind: "tools_unsupported", code: "tools_unsupported", attempts: 1 });
  });

  it("refuses malformed tool requests with a reason that names the problem, and sends nothing", async () => {
    const { broker, server } = await brokerFor([]);
    const call = { id: "call_1", name: "read_file", arguments: "{}" };
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 40; i++) deep = { type: "object", properties: { x: deep } };
    const cases: [unknown, RegExp][] = [
      [{ messages: [ASK], tools: [{ name: "read file", parameters: {} }] }, /tool name is 1 to 64 letters/],
      [{ messages: [ASK], tools: [TOOLS[0], TOOLS[0]] }, /tool "read_file" is defined twice/],
      [{ messages: [ASK], toolChoice: "required" }, /toolChoice needs tools/],
      [{ messages: [ASK], tools: TOOLS, toolChoice: { name: "delete_all" } }, /"delete_all", which is not among the tools/],
      [{ messages: [ASK, { role: "tool", toolCallId: "call_9", content: "x" }] }, /answers "call_9", which is not an unanswered call/],
      [{ messages: [ASK, { role: "assistant", content: "", toolCalls: [call] }, { role: "user", content: "next" }] }, /"call_1" of messages\[1\] have no tool message answering them/],
      [{ messages: [ASK, { role: "assistant", content: "", toolCalls: [call, call] }, { role: "tool", toolCallId: "call_1", content: "x" }] }, /id "call_1" is used twice/],
      [{ messages: [ASK, { role: "tool", content: "no id" }] }, /toolCallId/],
      [{ messages: [ASK], tools: [{ name: "deep", parameters: deep }] }, /nested at most 32 deep/],
      [{ messages: [ASK], tools: [{ name: "listy", parameters: [1, 2] }] }, /parameters must be a JSON object/],
      [{ messages: [ASK], tools: Array.from({ length: 5_000 }, (_, i) => ({ name: `t${i}` })) }, /too many tools: 5000 \(the limit is 128\)/],
      [{ messages: [ASK], tools: [{ name: "big", description: "d".repeat(7_000), parameters: { enum: ["x".repeat(500_000)] } }] }, /request too large: \d+ characters of messages and tools/],
    ];
    for (const [request, reason] of cases) {
      const answer = await broker.onLlm(request);
      expect(answer, JSON.stringify(request).slice(0, 200)).toMatchObject({ ok: false, code: "invalid_request", error: expect.stringMatching(reason) });
      if (!answer.ok) expect(answer.error.length).toBeLessThan(1_000);
    }
    expect(server.chatRequests()).toHaveLength(0);
  });

  it("counts tool definitions in the budget check, so large tools cannot slip past it", async () => {
    const big = Array.from({ length: 20 }, (_, i) => ({ name: `tool_${i}`, description: "Does one thing. ".repeat(100), parameters: { type: "object" } }));
    const { broker, server } = await brokerFor([{ content: "never sent" }], { generation: { tokens: 5_000, usd: null } });
    // About 32,000 characters of tool definitions: over 10,000 prompt tokens at the broker's 3 characters a token.
    expect(await broker.onLlm({ messages: [ASK], tools: big })).toMatchObject({ ok: false, code: "budget_exhausted" });
    expect(server.chatRequests()).toHaveLength(0);
  });

  it("refuses a flood of calls as busy beyond the waiting limit instead of queueing them all for the endpoint", async () => {
    const { broker, server } = await brokerFor(() => ({ content: "ok", promptTokens: 1, completionTokens: 1, delayMs: 50 }), { maxConcurrent: 2, maxWaiting: 4 });
    const answers = await Promise.all(Array.from({ length: 100 }, () => broker.onLlm({ messages: [ASK] })));
    expect(answers.filter((a) => a.ok)).toHaveLength(6);
    const busy = answers.filter((a) => !a.ok);
    expect(busy).toHaveLength(94);
    expect(busy[0]).toMatchObject({ code: "busy", error: expect.stringMatching(/2 calls are in flight and 4 waiting/) });
    expect(server.chatRequests()).toHaveLength(6);
    // Once the flood has drained, calls go through again.
    expect((await broker.onLlm({ messages: [ASK] })).ok).toBe(true);
    const busyEntries = broker.transcript().filter((e) => e.kind === "llm" && e.code === "busy");
    expect(busyEntries).toHaveLength(94);
    expect(busyEntries.every((e) => e.kind === "llm" && e.request === null)).toBe(true);
  });

  it("records at most 1,000 refusals a generation, so a flood of bad calls cannot flood the archive", async () => {
    const { broker } = await brokerFor([]);
    for (let i = 0; i < 1_500; i++) expect(await broker.onLlm({ messages: [{ role: "tool", content: `${i}` }] })).toMatchObject({ ok: false, code: "invalid_request" });
    const entries = broker.transcript();
    expect(entries).toHaveLength(MAX_RECORDED_REFUSALS);
    expect(entries.at(-1)).toMatchObject({ outcome: "invalid", error: expect.stringMatching(/later refusals of this generation are not recorded\)$/) });
  });
});
