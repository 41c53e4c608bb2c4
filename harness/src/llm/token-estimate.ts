import type { LlmCompletionRequest } from "./llm-port.js";

/** Rough token count for text when an endpoint reports no usage: about 4 characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Characters a request puts before the model: contents, tool call names and arguments, tool definitions. */
export function requestChars(request: Pick<LlmCompletionRequest, "messages" | "tools">): number {
  let chars = 0;
  for (const m of request.messages) {
    chars += m.content.length;
    if (m.role === "assistant") for (const call of m.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  }
  // Schemas are nested at most MAX_SCHEMA_DEPTH deep (the wire schema checked it), so stringify is safe.
  for (const tool of request.tools ?? []) chars += JSON.stringify(tool).length;
  return chars;
}

/** Rough prompt tokens of a request: its characters plus a small per-message overhead for roles and framing. */
export function estimatePromptTokens(request: Pick<LlmCompletionRequest, "messages" | "tools">): number {
  const PER_MESSAGE_OVERHEAD = 4;
  return Math.ceil(requestChars(request) / 4) + PER_MESSAGE_OVERHEAD * request.messages.length;
}
