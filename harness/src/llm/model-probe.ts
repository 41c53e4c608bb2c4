/**
 * A model probe: a few tiny requests that learn how an endpoint answers before a run relies
 * on it (`evolve doctor --model`, and `evolve run`, which records the result in run.json and
 * hands the mode to every meta agent as `request.llm`). Does it answer at all? Does it take
 * tools, or answer 400 (vllm-project/vllm#9986 without its tool flags, ollama/ollama#5793 for
 * models without tool support)? Are calls native, or written in the text (a server without a
 * parser for the model's format)? Are the arguments valid JSON? Does it take tool_choice
 * "required" and a named tool (vllm-project/vllm#13002 refused "required"; #44216 ignores it)?
 * Does it send reasoning beside the content?
 *
 * Every request starts with PROBE_MARKER, so servers' logs (and the test double) can tell it.
 */
import type { ChoiceOutcome, ModelProbe } from "../kernel/index.js";
import type { LlmCompletionRequest, LlmPort, LlmResult } from "./llm-port.js";

/** The first words of every probe request's system message. */
export const PROBE_MARKER = "evolve model probe";
/** The one tool the probe offers. */
export const PROBE_TOOL = "probe_echo";
/** Completion tokens each probe request may use (a reasoning model may spend them thinking: that is recorded too). */
export const PROBE_MAX_TOKENS = 256;
/** The most tokens a probe can cost: four requests of about 150 prompt tokens and PROBE_MAX_TOKENS each. */
export const PROBE_WORST_TOKENS = 4 * (150 + PROBE_MAX_TOKENS);

/** What a tool_choice value did: taken (a call came), refused (HTTP 400), ignored (no call), failed (another error), or not tried. */


const SYSTEM = `${PROBE_MARKER}: a few tiny requests to learn how this endpoint answers. Be brief.`;
const TOOL = {
  name: PROBE_TOOL,
  description: "Echo a word back.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
};

function request(user: string, extra: Partial<LlmCompletionRequest> = {}): LlmCompletionRequest {
  return { messages: [{ role: "system", content: SYSTEM }, { role: "user", content: user }], maxTokens: PROBE_MAX_TOKENS, temperature: 0, ...extra };
}

const ASK_CALL = `Call the tool ${PROBE_TOOL} with word set to "ready". Do not answer in prose.`;

/** Probes the endpoint behind `port` (about four calls; retries as the port does). */
export async function probeModel(port: LlmPort, options: { signal?: AbortSignal; now?: () => number } = {}): Promise<ModelProbe> {
  const probe = blankProbe(port.model, new Date((options.now ?? Date.now)()).toISOString(), null);
  const send = async (req: LlmCompletionRequest): Promise<LlmResult> => {
    const result = await port.complete(req, options.signal === undefined ? {} : { signal: options.signal });
    probe.calls += result.attempts > 0 ? 1 : 0;
    if (result.ok) {
      probe.tokens.prompt += result.completion.promptTokens;
      probe.tokens.completion += result.completion.completionTokens;
      if ((result.completion.reasoning ?? "") !== "") probe.reasoning = true;
    } else if (probe.errors.length < 4) {
      probe.errors.push(result.error.slice(0, 300));
    }
    return result;
  };
  const hello = await send(request("Reply with the single word: ready"));
  probe.answered = hello.ok;
  if (!hello.ok) return decide(probe, `the endpoint did not answer (${hello.error.slice(0, 200)})`);
  const auto = await send(request(ASK_CALL, { tools: [TOOL] }));
  readToolAnswer(probe, auto);
  if (probe.toolCalls !== "refused") {
    probe.toolChoice.required = choiceOutcome(await send(request(ASK_CALL, { tools: [TOOL], toolChoice: "required" })));
    probe.toolChoice.named = choiceOutcome(await send(request(ASK_CALL, { tools: [TOOL], toolChoice: { name: PROBE_TOOL } })));
  }
  return decide(probe, null);
}

/** A probe that did not run, and why; the seed then starts with tools and falls back by itself. */
export function skippedProbe(model: string, at: string, reason: string): ModelProbe {
  return { ...blankProbe(model, at, reason), reason: `not probed (${reason}): the seed starts with tools and falls back to text if they are refused` };
}

function blankProbe(model: string, at: string, skipped: string | null): ModelProbe {
  return {
    model,
    at,
    skipped,
    answered: false,
    reasoning: false,
    toolCalls: "unknown",
    textFormat: null,
    argumentsJson: null,
    toolChoice: { required: "not_tried", named: "not_tried" },
    mode: "tools",
    reason: "",
    calls: 0,
    tokens: { prompt: 0, completion: 0 },
    errors: [],
  };
}

function readToolAnswer(probe: ModelProbe, result: LlmResult): void {
  if (!result.ok) {
    probe.toolCalls = result.kind === "tools_unsupported" ? "refused" : "unknown";
    return;
  }
  const { completion } = result;
  const call = completion.toolCalls[0];
  if (call !== undefined) {
    probe.toolCalls = "native";
    probe.argumentsJson = validArguments(call.arguments);
    return;
  }
  const format = textCallFormat(completion.content);
  if (format !== null) {
    probe.toolCalls = "in_text";
    probe.textFormat = format;
  } else {
    // Empty content after thinking the whole budget away says nothing about tools.
    probe.toolCalls = completion.content.trim() === "" ? "unknown" : "ignored";
  }
}

function choiceOutcome(result: LlmResult): ChoiceOutcome {
  if (!result.ok) return result.kind === "tools_unsupported" || result.status === 400 ? "refused" : "failed";
  return result.completion.toolCalls.length > 0 || textCallFormat(result.completion.content) !== null ? "ok" : "ignored";
}

function validArguments(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>)["word"] === "string";
  } catch {
    return false;
  }
}

/** The format of a tool call written in the text, by its markers (a bounded look at the head of the text). */
export function textCallFormat(content: string): string | null {
  const head = content.slice(0, 20_000);
  if (head.includes("<function=")) return "qwen3-xml";
  if (head.includes("<tool_call>")) return "hermes";
  if (head.includes("<|python_tag|>")) return "llama";
  if (head.includes("[TOOL_CALLS]")) return "mistral";
  const trimmed = head.trim();
  return (trimmed.startsWith("{") || trimmed.startsWith("```")) && head.includes(`"${PROBE_TOOL}"`) ? "json" : null;
}

/** Fills in the mode and the reason from what was seen. */
function decide(probe: ModelProbe, failure: string | null): ModelProbe {
  const [mode, reason] = modeOf(probe, failure);
  return { ...probe, mode, reason };
}

function modeOf(probe: ModelProbe, failure: string | null): [ModelProbe["mode"], string] {
  if (failure !== null) return ["tools", `${failure}; the seed starts with tools and falls back to text if they are refused`];
  switch (probe.toolCalls) {
    case "refused":
      return ["text", "the endpoint refuses requests with tools (HTTP 400): the seed asks for edits as text"];
    case "native":
      return ["tools", probe.argumentsJson === true ? "native tool calls with valid JSON arguments" : "native tool calls, but the arguments were not valid JSON: the seed repairs what it can"];
    case "in_text":
      return ["tools", `tool calls come written in the text (${probe.textFormat ?? "?"}), not as native calls: the seed reads them there`];
    case "ignored":
      return ["text", "the model answered in prose and did not call the tool: the seed asks for edits as text"];
    case "unknown":
      return ["tools", probe.reasoning ? "the model spent the probe's tokens thinking and showed no call: the seed starts with tools" : "the tool request failed: the seed starts with tools and falls back to text if they are refused"];
  }
}

/** The probe as lines for a person (doctor, the run's opening lines). */
export function describeProbe(probe: ModelProbe): string[] {
  if (probe.skipped !== null) return [`model ${probe.model}: ${probe.reason}`];
  const choice = (c: ChoiceOutcome): string => (c === "ok" ? "taken" : c === "not_tried" ? "not tried" : c);
  return [
    `answers: ${probe.answered ? "yes" : "no"}${probe.reasoning ? " (with reasoning beside the content)" : ""}`,
    `tool calls: ${probe.toolCalls === "in_text" ? `written in the text (${probe.textFormat ?? "?"})` : probe.toolCalls}${probe.argumentsJson === null ? "" : probe.argumentsJson ? ", arguments valid JSON" : ", arguments NOT valid JSON"}`,
    `tool_choice: "required" ${choice(probe.toolChoice.required)}, a named tool ${choice(probe.toolChoice.named)}`,
    `the seed will use: ${probe.mode === "tools" ? "its tool loop" : "edits as text (SEARCH/REPLACE)"}, because ${probe.reason}`,
    `probe cost: ${probe.calls} calls, ${probe.tokens.prompt + probe.tokens.completion} tokens${probe.errors.length > 0 ? `; errors: ${probe.errors.join(" | ")}` : ""}`,
  ];
}
