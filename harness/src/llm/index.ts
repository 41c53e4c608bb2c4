/**
 * The LLM broker: OpenAI-compatible client, budgets, transcripts, replay. Wiring, once per run:
 *
 *   const setup = resolveLlmSetup(process.env, { model });          // setup.available → init.llmAvailable
 *   const runLedger = new BudgetLedger("run", { tokens, usd });       // resumed runs pass what was spent
 *   // per generation:
 *   const broker = createGenerationBroker({ setup, runLedger, generationLimits });
 *   await runImprove({ ..., onLlm: broker.onLlm, onTool: broker.onTool });
 *   broker.close(); record broker.transcript() and broker.usage(); stop proposing when runLedger.exhausted.
 *   // replay: createGenerationBroker({ ..., port: createReplayPort(parseTranscript(text).entries) })
 */
export { parseAgentRequest, RequestCaps, DEFAULT_REQUEST_CAPS } from "./agent-request.js";
export type { ParsedAgentRequest, AgentRequestParse } from "./agent-request.js";
export { LlmBroker, MAX_RECORDED_REFUSALS, MIN_COMPLETION_TOKENS } from "./broker.js";
export type { LlmBrokerOptions, BrokerUsage } from "./broker.js";
export { createLlmPort, createGenerationBroker } from "./connect-llm.js";
export { BudgetLedger, BudgetLimits, UNLIMITED, MIN_USEFUL_TOKENS } from "./budget-ledger.js";
export type { Spend } from "./budget-ledger.js";
export { resolveLlmSetup, LlmOptions, DEFAULT_MODEL, DEFAULT_TIMEOUT_MS } from "./llm-config.js";
export type { LlmSetup } from "./llm-config.js";
export { LlmFailureKind } from "./llm-port.js";
export type { ChatMessage, LlmCompletion, LlmCompletionRequest, LlmPort, LlmResult, LlmCallOptions } from "./llm-port.js";
export { createOpenAiPort, MAX_REPLY_CHARS, MAX_REPLY_TOOL_CALLS } from "./openai-port.js";
export type { OpenAiPortDeps } from "./openai-port.js";
export { TokenPrice, priceFor, costUsd } from "./pricing.js";
export { createReplayPort } from "./replay-port.js";
export { createKeyedReplayPort } from "./keyed-replay-port.js";
export type { ReplayPort } from "./replay-port.js";
export { RetryPolicy, DEFAULT_RETRY_POLICY, DEFAULT_MAX_RETRY_AFTER_MS } from "./retry-policy.js";
export { probeModel, skippedProbe, describeProbe, textCallFormat, PROBE_MARKER, PROBE_TOOL, PROBE_WORST_TOKENS } from "./model-probe.js";
export { Secret } from "./secret.js";
export { estimateTokens, estimatePromptTokens, requestChars } from "./token-estimate.js";
export {
  TranscriptEntry,
  LlmTranscriptEntry,
  ToolTranscriptEntry,
  TRANSCRIPT_SCHEMA_VERSION,
  MAX_REASONING_CHARS,
  serializeTranscript,
  parseTranscript,
} from "./transcript.js";
export type { TranscriptProblem } from "./transcript.js";
export { EvaluateTranscriptEntry } from "./evaluate-entry.js";
export { AttemptsTranscriptEntry, AttemptView } from "./attempts-entry.js";
