/**
 * An agent's LLM request and the host's answer, as they cross the container boundary: the
 * one definition every hop uses. The runner forwards whatever the agent passed as opaque
 * JSON (so a malformed request can never be a protocol violation that kills the container);
 * the host's broker parses it with `WireLlmRequest` and answers with a `WireLlmAnswer`,
 * a refusal included; the openai port, transcripts and the replay port take the parsed
 * types. It lives in the kernel because the runner protocol, the sandbox and the broker all
 * speak it; the contract's LLM types are checked against it below.
 */
import { z } from "zod";
import type * as Contract from "@evolve/contract";

/** OpenAI's rule for function names, which compatible servers follow. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Real JSON Schemas nest under ten levels; the bound keeps every host walk over one shallow. */
export const MAX_SCHEMA_DEPTH = 32;
/** OpenAI's own limit on tools per request. */
export const MAX_TOOLS = 128;
const MAX_ID_CHARS = 1_000;
const MAX_DESCRIPTION_CHARS = 8_000;

export type JsonObject = { [key: string]: Contract.Json };

/** True when `value` is a plain JSON object nested at most `maxDepth` deep; iterative, so depth cannot overflow the stack. */
export function isShallowJsonObject(value: unknown, maxDepth: number): value is JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node === "string" || typeof node === "boolean") continue;
    if (typeof node === "number") {
      if (!Number.isFinite(node)) return false;
      continue;
    }
    if (typeof node !== "object" || depth > maxDepth) return false;
    const proto = Object.getPrototypeOf(node) as unknown;
    if (!Array.isArray(node) && proto !== Object.prototype && proto !== null) return false;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return true;
}

export const WireLlmToolCall = z.object({
  id: z.string().min(1).max(MAX_ID_CHARS),
  name: z.string().max(MAX_ID_CHARS),
  /** As the model wrote them: usually JSON text, not always (it is the agent's to parse). */
  arguments: z.string(),
});
export type WireLlmToolCall = z.infer<typeof WireLlmToolCall>;

export const WireLlmTool = z.object({
  name: z.string().regex(TOOL_NAME, "a tool name is 1 to 64 letters, digits, '_' or '-'"),
  description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
  /** A JSON Schema of the arguments (an object schema). */
  parameters: z
    .custom<JsonObject>((v) => isShallowJsonObject(v, MAX_SCHEMA_DEPTH), `parameters must be a JSON object nested at most ${MAX_SCHEMA_DEPTH} deep`)
    .optional(),
});
export type WireLlmTool = z.infer<typeof WireLlmTool>;

export const WireLlmToolChoice = z.union([z.enum(["auto", "none", "required"]), z.object({ name: z.string().regex(TOOL_NAME) })]);
export type WireLlmToolChoice = z.infer<typeof WireLlmToolChoice>;

export const WireLlmMessage = z.discriminatedUnion("role", [
  z.object({ role: z.enum(["system", "user"]), content: z.string() }),
  /** The model's own turn sent back: its text and the tool calls it made. */
  z.object({ role: z.literal("assistant"), content: z.string(), toolCalls: z.array(WireLlmToolCall).optional() }),
  /** The result of one tool call, for the call with that id. */
  z.object({ role: z.literal("tool"), toolCallId: z.string().min(1).max(MAX_ID_CHARS), content: z.string() }),
]);
export type WireLlmMessage = z.infer<typeof WireLlmMessage>;

/** The request's fields, without the checks across them (the transcript extends it). */
export const WireLlmRequestFields = z.object({
  messages: z.array(WireLlmMessage).min(1, "at least one message is required"),
  temperature: z.number().finite().min(0).max(2).optional(),
  maxTokens: z.number().finite().optional(),
  tools: z.array(WireLlmTool).max(MAX_TOOLS).optional(),
  toolChoice: WireLlmToolChoice.optional(),
});

/** An agent's request, checked field by field and across fields (tools named once, every tool call answered). */
export const WireLlmRequest = WireLlmRequestFields.superRefine((request, ctx) => {
  for (const problem of toolProblems(request)) ctx.addIssue({ code: "custom", message: problem.message, path: problem.path });
});
export type WireLlmRequest = z.infer<typeof WireLlmRequest>;

/** What endpoints send the same way, the rest as "other". */
export const WireLlmFinishReason = z.enum(["stop", "length", "tool_calls", "content_filter", "other"]);
export type WireLlmFinishReason = z.infer<typeof WireLlmFinishReason>;

/** An endpoint's finish_reason (or a recorded one) as a WireLlmFinishReason. */
export function finishReasonOf(raw: unknown): WireLlmFinishReason {
  const known = WireLlmFinishReason.safeParse(raw);
  return known.success ? known.data : raw === "function_call" ? "tool_calls" : "other";
}

export const WireLlmResponse = z.object({
  /** The text of the reply; "" when the model only called tools. */
  content: z.string(),
  toolCalls: z.array(WireLlmToolCall),
  finishReason: WireLlmFinishReason,
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
});
export type WireLlmResponse = z.infer<typeof WireLlmResponse>;

/** Why a call was not answered; the agent's `complete` rejects with an Error carrying it as `code`. */
export const LlmErrorCode = z.enum([
  "invalid_request",
  "unavailable",
  "busy",
  "budget_exhausted",
  "tools_unsupported",
  "endpoint_failed",
  "replay_divergence",
  "internal",
]);
export type LlmErrorCode = z.infer<typeof LlmErrorCode>;

/** The host's answer to one call: a response, or a refusal the agent receives as a rejection. */
export const WireLlmAnswer = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), response: WireLlmResponse }),
  z.object({ ok: z.literal(false), code: LlmErrorCode, error: z.string() }),
]);
export type WireLlmAnswer = z.infer<typeof WireLlmAnswer>;

/** A refusal, as the broker and the channel build them. */
export function llmRefusal(code: LlmErrorCode, error: string): WireLlmAnswer {
  return { ok: false, code, error };
}

interface ToolProblem {
  path: (string | number)[];
  message: string;
}

/** The rules endpoints enforce across fields, checked here so the agent learns them without a call. */
function toolProblems(request: z.infer<typeof WireLlmRequestFields>): ToolProblem[] {
  const problems: ToolProblem[] = [];
  const names = new Set<string>();
  (request.tools ?? []).forEach((tool, i) => {
    if (names.has(tool.name)) problems.push({ path: ["tools", i, "name"], message: `tool "${tool.name}" is defined twice` });
    names.add(tool.name);
  });
  const choice = request.toolChoice;
  if (choice !== undefined && names.size === 0) problems.push({ path: ["toolChoice"], message: "toolChoice needs tools" });
  else if (typeof choice === "object" && !names.has(choice.name)) {
    problems.push({ path: ["toolChoice", "name"], message: `toolChoice names "${choice.name}", which is not among the tools` });
  }
  // Every tool call of an assistant message is answered by the tool messages right after it, once each.
  let open: { at: number; ids: Set<string> } | null = null;
  const closeOpen = (): void => {
    if (open !== null && open.ids.size > 0) {
      problems.push({ path: ["messages", open.at], message: `tool call(s) ${[...open.ids].map((id) => `"${id}"`).join(", ")} of messages[${open.at}] have no tool message answering them` });
    }
    open = null;
  };
  request.messages.forEach((message, i) => {
    if (message.role === "tool") {
      if (open === null || !open.ids.delete(message.toolCallId)) {
        problems.push({ path: ["messages", i, "toolCallId"], message: `tool message answers "${message.toolCallId}", which is not an unanswered call of the assistant message before it` });
      }
      return;
    }
    closeOpen();
    if (message.role !== "assistant" || message.toolCalls === undefined || message.toolCalls.length === 0) return;
    const ids = new Set<string>();
    message.toolCalls.forEach((call, j) => {
      if (ids.has(call.id)) problems.push({ path: ["messages", i, "toolCalls", j, "id"], message: `tool call id "${call.id}" is used twice` });
      ids.add(call.id);
    });
    open = { at: i, ids };
  });
  closeOpen();
  return problems.slice(0, 5);
}

// The contract (harness/src/kernel/evolve-contract.d.ts) is what agents compile against; these
// fail to compile when it and the schemas above drift apart.
/** Identical types (not merely assignable both ways: an extra optional field on one side counts). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** zod types an optional field `x?: T | undefined`; the contract (exactOptionalPropertyTypes) says `x?: T`. */
type Defined<T> = T extends readonly (infer U)[] ? Defined<U>[] : T extends object ? { [K in keyof T]: Defined<Exclude<T[K], undefined>> } : T;
type ContractChecks = [
  Same<Defined<WireLlmRequest>, Contract.LlmRequest>,
  Same<Defined<WireLlmMessage>, Contract.LlmMessage>,
  Same<WireLlmResponse, Contract.LlmResponse>,
  Same<LlmErrorCode, Contract.LlmErrorCode>,
];
export const CONTRACT_MATCHES: ContractChecks = [true, true, true, true];
