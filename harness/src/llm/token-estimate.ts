/** Rough token count for text when an endpoint reports no usage: about 4 characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Rough prompt tokens of a chat: content plus a small per-message overhead for roles and framing. */
export function estimatePromptTokens(messages: readonly { content: string }[]): number {
  const PER_MESSAGE_OVERHEAD = 4;
  return messages.reduce((sum, m) => sum + estimateTokens(m.content) + PER_MESSAGE_OVERHEAD, 0);
}
