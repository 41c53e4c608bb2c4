/**
 * A scripted local OpenAI-compatible HTTP server for tests: the one shared way to fake the
 * LLM over HTTP (so the real `openai` client and the real broker are exercised).
 *
 * Serves `POST /v1/chat/completions` (non-streaming) and `GET /v1/models` on 127.0.0.1 at a
 * free port. Each chat request takes the next step of the script (or calls the script
 * function); every request, whatever its path, is recorded with its headers and body.
 *
 *   const server = await startScriptedOpenAIServer([
 *     { kind: "error", status: 429 },
 *     { content: "hello", promptTokens: 12, completionTokens: 3 },
 *     { content: null, toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' }] },
 *   ]);
 *   // OPENAI_BASE_URL = server.baseURL  ("http://127.0.0.1:<port>/v1")
 *   server.requests[0]?.headers.authorization  // "Bearer <key>"
 *   await server.close();
 *
 * When a list script runs out the server answers 400 "scripted server: script exhausted"
 * (a non-retryable status, so a test fails with a clear reason instead of retrying).
 *
 * The harness probes a model when a run starts (harness/src/llm/model-probe.ts). By default
 * the server answers those requests itself, as a well-behaved tool-calling model, without
 * taking script steps (they are in `requests` and `probeRequests()`, not `chatRequests()`);
 * `{ probes: "script" }` hands them to the script like any other (the model zoo does, so
 * the probe meets each persona's habits).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { z } from "zod";
import { PROBE_MARKER } from "../../harness/src/llm/index.js";

/** A tool call in a scripted reply, as the model writes it. */
export interface ScriptedToolCall {
  /** Defaults to `call_<chat index>_<position>`; `null` leaves the id out (some local servers do). */
  id?: string | null;
  name: string;
  /** JSON text as OpenAI sends it (or anything else a model may write); an object is sent as an object, as some local servers do. */
  arguments: string | Record<string, unknown>;
}

/** A successful completion. Token counts default to chars/4 estimates. */
export interface ScriptedCompletion {
  kind?: "completion";
  /** Null when the reply is only tool calls (as OpenAI sends it). */
  content: string | null;
  toolCalls?: ScriptedToolCall[];
  promptTokens?: number;
  completionTokens?: number;
  /** Leave `usage` out of the response (some local servers do). */
  omitUsage?: boolean;
  /** Model name echoed in the response; defaults to the requested model. */
  model?: string;
  /** Defaults to "tool_calls" when there are tool calls, else "stop". */
  finishReason?: "stop" | "length" | "tool_calls" | "content_filter";
  /** Wait this long before answering (for per-call timeout tests). */
  delayMs?: number;
  /** A reasoning model's thoughts, sent beside the content (vLLM's `reasoning_content`, or `reasoning`). */
  reasoning?: string;
  reasoningField?: "reasoning_content" | "reasoning";
}

/** An HTTP error status with an OpenAI-shaped error body. */
export interface ScriptedHttpError {
  kind: "error";
  status: number;
  message?: string;
  /** Sent as the `retry-after` header (seconds), when given. */
  retryAfterSeconds?: number;
  delayMs?: number;
}

/** Destroy the socket without answering (a network error for the client). */
export interface ScriptedDisconnect {
  kind: "disconnect";
  delayMs?: number;
}

export type ScriptedReply = ScriptedCompletion | ScriptedHttpError | ScriptedDisconnect;

/** A chat request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/chat/completions". */
  path: string;
  /** Lower-cased header names, as node:http gives them. */
  headers: Record<string, string>;
  rawBody: string;
  /** The parsed JSON body, or null when it was not JSON. */
  body: ChatCompletionBody | null;
  /** 0-based index among chat completion requests (null for other paths, and for probes the server answered itself). */
  chatIndex: number | null;
  /** A request of the harness's model probe. */
  probe: boolean;
}

export const ChatCompletionBody = z
  .object({
    model: z.string().optional(),
    messages: z.array(z.object({ role: z.string(), content: z.unknown() }).loose()).optional(),
    max_tokens: z.number().optional(),
    max_completion_tokens: z.number().optional(),
    temperature: z.number().optional(),
    tools: z.array(z.object({ type: z.string(), function: z.object({ name: z.string() }).loose() }).loose()).optional(),
    tool_choice: z.unknown().optional(),
  })
  .loose();
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

/** A function script sees every chat request and its 0-based index. */
export type ScriptFn = (request: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;
export type Script = readonly (ScriptedReply | ScriptFn)[] | ScriptFn;

export interface ScriptedOpenAIServer {
  /** Base URL for the openai client, ending in "/v1". */
  readonly baseURL: string;
  /** Every request received, in arrival order (chat and others). */
  readonly requests: RecordedRequest[];
  /** Only the chat completion requests the script answered. */
  chatRequests(): RecordedRequest[];
  /** The requests of the harness's model probe. */
  probeRequests(): RecordedRequest[];
  close(): Promise<void>;
}

const MODELS = ["scripted-model", "gpt-4o-mini"];

/** Starts the server on 127.0.0.1 at a free port. */
export async function startScriptedOpenAIServer(script: Script, options: { models?: string[]; probes?: "answer" | "script" } = {}): Promise<ScriptedOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let chatCount = 0;
  const models = options.models ?? MODELS;

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const nextReply = async (recorded: RecordedRequest, index: number): Promise<ScriptedReply> => {
    if (typeof script === "function") return script(recorded, index);
    const step = script[index];
    if (step === undefined) return { kind: "error", status: 400, message: `scripted server: script exhausted (request #${index + 1}, script has ${script.length})` };
    return typeof step === "function" ? step(recorded, index) : step;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawBody = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const isChat = req.method === "POST" && path === "/v1/chat/completions";
    const body = parseBody(rawBody);
    const probe = isChat && isProbe(body);
    const answeredHere = probe && options.probes !== "script";
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path,
      headers,
      rawBody,
      body,
      chatIndex: isChat && !answeredHere ? chatCount : null,
      probe,
    };
    requests.push(recorded);
    if (answeredHere) {
      respond(res, probeAnswer(body), recorded);
      return;
    }

    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, { object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "scripted" })) });
      return;
    }
    if (!isChat) {
      sendJson(res, 404, errorBody(`scripted server: no route ${req.method} ${path}`, 404));
      return;
    }
    const index = chatCount++;
    let reply: ScriptedReply;
    try {
      reply = await nextReply(recorded, index);
    } catch (err) {
      sendJson(res, 500, errorBody(`scripted server: script function threw: ${String(err)}`, 500));
      return;
    }
    if (reply.delayMs !== undefined && reply.delayMs > 0) await wait(reply.delayMs);
    if (res.destroyed || res.writableEnded) return;
    respond(res, reply, recorded);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`scripted server: ${String(err)}`, 500));
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.chatIndex !== null),
    probeRequests: () => requests.filter((r) => r.probe),
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function respond(res: ServerResponse, reply: ScriptedReply, recorded: RecordedRequest): void {
  switch (reply.kind) {
    case "disconnect":
      res.socket?.destroy();
      return;
    case "error": {
      const extra: Record<string, string> = {};
      if (reply.retryAfterSeconds !== undefined) extra["retry-after"] = String(reply.retryAfterSeconds);
      sendJson(res, reply.status, errorBody(reply.message ?? `scripted error ${reply.status}`, reply.status), extra);
      return;
    }
    case undefined:
    case "completion": {
      const messages = recorded.body?.messages ?? [];
      const promptChars = messages.reduce((n, m) => n + (typeof m.content === "string" ? m.content.length : 0), 0);
      const promptTokens = reply.promptTokens ?? Math.max(1, Math.ceil(promptChars / 4));
      const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
        ...(call.id === null ? {} : { id: call.id ?? `call_${recorded.chatIndex ?? 0}_${i}` }),
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      }));
      const completionChars = (reply.content ?? "").length + (reply.reasoning ?? "").length + toolCalls.reduce((n, c) => n + c.function.name.length + JSON.stringify(c.function.arguments).length, 0);
      const completionTokens = reply.completionTokens ?? Math.max(1, Math.ceil(completionChars / 4));
      const message: Record<string, unknown> = { role: "assistant", content: reply.content, refusal: null };
      if (reply.reasoning !== undefined) message[reply.reasoningField ?? "reasoning_content"] = reply.reasoning;
      if (toolCalls.length > 0) message["tool_calls"] = toolCalls;
      const body: Record<string, unknown> = {
        id: `chatcmpl-scripted-${recorded.chatIndex ?? 0}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: reply.model ?? recorded.body?.model ?? "scripted-model",
        choices: [
          {
            index: 0,
            message,
            finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
            logprobs: null,
          },
        ],
      };
      if (reply.omitUsage !== true) {
        body["usage"] = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
      }
      sendJson(res, 200, body);
      return;
    }
  }
}

/** True for a request of the harness's model probe (its system message starts with the marker). */
export function isProbe(body: ChatCompletionBody | null): boolean {
  const first = body?.messages?.[0]?.content;
  return typeof first === "string" && first.startsWith(PROBE_MARKER);
}

/** What a well-behaved tool-calling model answers a probe: the tool it is asked for, or the word. */
function probeAnswer(body: ChatCompletionBody | null): ScriptedCompletion {
  const tool = body?.tools?.[0]?.function.name;
  const usage = { promptTokens: 20, completionTokens: 5 };
  return tool === undefined ? { content: "ready", ...usage } : { content: null, toolCalls: [{ name: tool, arguments: '{"word":"ready"}' }], ...usage };
}

function errorBody(message: string, status: number): unknown {
  const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type, param: null, code: type } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...extraHeaders });
  res.end(text);
}

function parseBody(raw: string): ChatCompletionBody | null {
  try {
    const parsed = ChatCompletionBody.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
