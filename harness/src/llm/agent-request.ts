/**
 * The agent's LLM request arrives from a container: hostile JSON. Parse it with the one wire
 * schema (harness/src/kernel/llm-wire.ts), cap its size, clamp maxTokens, and say why when it is refused.
 */
import { z } from "zod";
import { MAX_TOOLS, WireLlmRequest } from "../kernel/index.js";
import type { LlmCompletionRequest } from "./llm-port.js";
import { requestChars } from "./token-estimate.js";
import { capText } from "../text/index.js";

export const RequestCaps = z.object({
  maxMessages: z.number().int().positive(),
  /** Characters the model would read: message contents, tool calls and tool definitions. */
  maxTotalChars: z.number().int().positive(),
  /** The largest completion an agent may ask for. */
  maxTokensCap: z.number().int().positive(),
  /** Used when the agent does not say. */
  defaultMaxTokens: z.number().int().positive(),
});
export type RequestCaps = z.infer<typeof RequestCaps>;

export const DEFAULT_REQUEST_CAPS: RequestCaps = {
  maxMessages: 200,
  maxTotalChars: 400_000,
  maxTokensCap: 4_096,
  defaultMaxTokens: 1_024,
};

/** A request that passed the caps; maxTokens is clamped into [1, maxTokensCap]. */
export type ParsedAgentRequest = LlmCompletionRequest & { totalChars: number };

export type AgentRequestParse = { ok: true; request: ParsedAgentRequest } | { ok: false; reason: string };

const MAX_REASON_CHARS = 600;

/** Validates an untrusted request; never throws, never echoes the request's content back. */
export function parseAgentRequest(raw: unknown, caps: RequestCaps = DEFAULT_REQUEST_CAPS): AgentRequestParse {
  // Count before the schema walks every element, so 10,000 messages cost one comparison.
  const fields = typeof raw === "object" && raw !== null ? (raw as { messages?: unknown; tools?: unknown }) : {};
  if (Array.isArray(fields.messages) && fields.messages.length > caps.maxMessages) {
    return refuse(`too many messages: ${fields.messages.length} (the limit is ${caps.maxMessages})`);
  }
  if (Array.isArray(fields.tools) && fields.tools.length > MAX_TOOLS) {
    return refuse(`too many tools: ${fields.tools.length} (the limit is ${MAX_TOOLS})`);
  }
  const parsed = WireLlmRequest.safeParse(raw);
  if (!parsed.success) return refuse(`malformed LLM request: ${z.prettifyError(parsed.error)}`);
  const { messages, temperature, maxTokens, tools, toolChoice } = parsed.data;
  const totalChars = requestChars(parsed.data);
  if (totalChars > caps.maxTotalChars) {
    return refuse(`request too large: ${totalChars} characters of messages and tools (the limit is ${caps.maxTotalChars})`);
  }
  const wanted = maxTokens ?? caps.defaultMaxTokens;
  const request: ParsedAgentRequest = {
    messages,
    maxTokens: Math.min(caps.maxTokensCap, Math.max(1, Math.floor(wanted))),
    totalChars,
    ...(temperature === undefined ? {} : { temperature }),
    ...(tools === undefined ? {} : { tools }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
  };
  return { ok: true, request };
}

function refuse(reason: string): AgentRequestParse {
  return { ok: false, reason: capText(reason, MAX_REASON_CHARS) };
}
