/**
 * The agent's LLM request arrives from a container: hostile JSON. Parse it with zod, cap the
 * message count and total characters, clamp maxTokens, and say why when it is refused.
 */
import { z } from "zod";
import type { ChatMessage } from "./llm-port.js";

export const RequestCaps = z.object({
  maxMessages: z.number().int().positive(),
  /** Sum of all message contents, in characters. */
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

export const AgentLlmRequest = z.object({
  messages: z
    .array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() }))
    .min(1, "at least one message is required"),
  temperature: z.number().finite().min(0).max(2).optional(),
  maxTokens: z.number().finite().optional(),
});
export type AgentLlmRequest = z.infer<typeof AgentLlmRequest>;

/** A request that passed the caps; maxTokens is clamped into [1, maxTokensCap]. */
export interface ParsedAgentRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens: number;
  totalChars: number;
}

export type AgentRequestParse = { ok: true; request: ParsedAgentRequest } | { ok: false; reason: string };

const MAX_REASON_CHARS = 600;

/** Validates an untrusted request; never throws, never echoes the request's content back. */
export function parseAgentRequest(raw: unknown, caps: RequestCaps = DEFAULT_REQUEST_CAPS): AgentRequestParse {
  // Count before the schema walks every element, so 10,000 messages cost one comparison.
  const rawMessages = typeof raw === "object" && raw !== null ? (raw as { messages?: unknown }).messages : undefined;
  if (Array.isArray(rawMessages) && rawMessages.length > caps.maxMessages) {
    return refuse(`too many messages: ${rawMessages.length} (the limit is ${caps.maxMessages})`);
  }
  const parsed = AgentLlmRequest.safeParse(raw);
  if (!parsed.success) return refuse(`malformed LLM request: ${z.prettifyError(parsed.error)}`);
  const { messages, temperature, maxTokens } = parsed.data;
  const totalChars = messages.reduce((sum, m) => sum + m.content.length, 0);
  if (totalChars > caps.maxTotalChars) {
    return refuse(`request too large: ${totalChars} characters of message content (the limit is ${caps.maxTotalChars})`);
  }
  const wanted = maxTokens ?? caps.defaultMaxTokens;
  const request: ParsedAgentRequest = {
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    maxTokens: Math.min(caps.maxTokensCap, Math.max(1, Math.floor(wanted))),
    totalChars,
  };
  if (temperature !== undefined) request.temperature = temperature;
  return { ok: true, request };
}

function refuse(reason: string): AgentRequestParse {
  return { ok: false, reason: reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason };
}
