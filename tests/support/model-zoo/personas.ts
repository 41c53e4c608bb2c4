/**
 * The model zoo: one row per documented reply habit of the models and servers users bring,
 * each with the public source that documents it. A persona answers from the request (tools
 * offered, files shown, results since its last reply; drivers.ts), so the same persona serves
 * the harness's probe, the tool loop and the text strategy as that model would.
 *
 * `edits`: its replies carry a usable edit (the models bench expects a valid child in ≥ 90 %
 * of generations); false: it never edits (the bench expects its generation over in ≤ 8 calls).
 */
import { cutFirst, errorsFirst, probeReply, reasoning, slow, textModel, toolModel, type Reply } from "./drivers.js";

export interface Persona {
  name: string;
  habit: string;
  source: string;
  edits: boolean;
  reply: Reply;
}

const OLLAMA_NO_TOOLS = "registry.ollama.ai/library/scripted does not support tools";

export const PERSONAS: readonly Persona[] = [
  { name: "native-tools", habit: "native tool calls, strict JSON arguments", source: "https://platform.openai.com/docs/guides/function-calling", edits: true, reply: toolModel("native") },
  {
    name: "tools-refused",
    habit: "HTTP 400 to any request with tools; edits as SEARCH/REPLACE text when asked without them",
    source: "ollama/ollama#5793 (\"does not support tools\"); vllm-project/vllm#9986 (\"auto\" tool choice requires --enable-auto-tool-choice)",
    edits: true,
    reply: (view, request, memory) => (view.tools.length > 0 ? { kind: "error", status: 400, message: OLLAMA_NO_TOOLS } : toolModel("native")(view, request, memory)),
  },
  {
    name: "tool-choice-refused",
    habit: "HTTP 400 to tool_choice \"required\" or a named tool; native calls otherwise",
    source: "vllm-project/vllm#13002 (\"required\" not supported), vllm-project/vllm#16887",
    edits: true,
    reply: (view, request, memory) =>
      view.toolChoice === "required" || (typeof view.toolChoice === "object" && view.toolChoice !== null)
        ? { kind: "error", status: 400, message: 'tool_choice "required" is not supported yet' }
        : toolModel("native")(view, request, memory),
  },
  { name: "search-replace-text", habit: "tools offered but ignored; edits as SEARCH/REPLACE blocks in the text", source: "aider's diff format, https://aider.chat/docs/more/edit-formats.html", edits: true, reply: textModel("search-replace") },
  { name: "whole-file-text", habit: "tools offered but ignored; each changed file whole, fenced under its path", source: "aider's whole format, https://aider.chat/docs/more/edit-formats.html", edits: true, reply: textModel("whole-file") },
  { name: "unified-diff-text", habit: "tools offered but ignored; a unified diff in a ```diff fence", source: "aider's udiff format, https://aider.chat/docs/more/edit-formats.html", edits: true, reply: textModel("unified-diff") },
  { name: "hermes-in-text", habit: "<tool_call>{\"name\", \"arguments\"}</tool_call> written in content (no server-side parser)", source: "ollama/ollama#5813, NousResearch/hermes-agent#3518", edits: true, reply: toolModel("hermes") },
  { name: "qwen3-xml-in-text", habit: "Qwen3-Coder <function=…><parameter=…> XML written in content", source: "NousResearch/hermes-agent#7628, ggml-org/llama.cpp#15012", edits: true, reply: toolModel("qwen3-xml") },
  { name: "llama-python-tag", habit: "Llama 3.1 <|python_tag|>{\"name\", \"parameters\"} in content", source: "vLLM's llama3_json tool parser, https://docs.vllm.ai/en/stable/features/tool_calling/", edits: true, reply: toolModel("llama") },
  { name: "mistral-tool-calls", habit: "Mistral [TOOL_CALLS][{…}] JSON list in content", source: "ml-explore/mlx-lm#1374", edits: true, reply: toolModel("mistral") },
  { name: "args-fenced-commas", habit: "native calls whose arguments sit in a ```json fence with trailing commas", source: "OpenHands/software-agent-sdk#2488 (malformed JSON arguments)", edits: true, reply: toolModel("args-fenced") },
  { name: "args-python-literals", habit: "native calls whose arguments use single quotes and Python None/True", source: "NousResearch/atropos#478, ml-explore/mlx-lm#1785", edits: true, reply: toolModel("args-python") },
  { name: "args-trailing-prose", habit: "native calls whose arguments are followed by a sentence of prose", source: "NousResearch/hermes-agent#742 (JSON mixed with text)", edits: true, reply: toolModel("args-prose") },
  { name: "cut-at-length", habit: "a call cut at max_tokens mid-arguments, finish_reason \"length\"", source: "https://platform.openai.com/docs/api-reference/chat/object (finish_reason length)", edits: true, reply: toolModel("native", cutFirst("length")) },
  { name: "cut-finish-lies", habit: "a call cut at max_tokens, but finish_reason \"tool_calls\" as if complete", source: "vllm-project/vllm#58228", edits: true, reply: toolModel("native", cutFirst("tool_calls")) },
  { name: "reasoning-then-calls", habit: "reasoning_content beside native calls", source: "https://docs.vllm.ai/en/stable/features/reasoning_outputs/", edits: true, reply: reasoning(toolModel("native"), "reasoning_content") },
  { name: "rate-limited", habit: "HTTP 429 with Retry-After: 1 before each answer", source: "https://platform.openai.com/docs/guides/rate-limits", edits: true, reply: errorsFirst(toolModel("native"), 429, 1) },
  { name: "overloaded-503", habit: "HTTP 503 with Retry-After: 1 before each answer", source: "RFC 9110 §10.2.3 (Retry-After on 503)", edits: true, reply: errorsFirst(toolModel("native"), 503, 1) },
  { name: "slow", habit: "every answer 1.5 s late", source: "local servers on small hardware (llama.cpp, Ollama)", edits: true, reply: slow(toolModel("native"), 1_500) },
  {
    name: "reasoning-only",
    habit: "thinks the whole token budget away: empty content, only reasoning, finish_reason \"length\"",
    source: "ollama/ollama#11381 (only <think>, no calls); https://docs.vllm.ai/en/stable/features/reasoning_outputs/",
    edits: false,
    reply: (view) => ({ content: "", reasoning: `Hmm. Let me consider ${view.task ?? "this"} carefully. `.repeat(40), finishReason: "length", completionTokens: view.maxTokens }),
  },
  {
    name: "repeats-one-call",
    habit: "reads the same file again and again",
    source: "OpenHands stuck detector, https://docs.openhands.dev/sdk/guides/agent-stuck-detector",
    edits: false,
    reply: (view) => (view.probe ? probeReply(view, "native") : { content: "Let me look at the solver again.", toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: `task/${view.task ?? "index"}.ts` }) }] }),
  },
  { name: "chatty-no-edit", habit: "answers in prose, never a call or an edit", source: "ollama/ollama#11185 (replies in content, no tool_calls)", edits: false, reply: () => ({ content: "The solver looks reasonable. One could tune its parameters, or restructure its search, depending on the feedback." }) },
];

/** The persona of that name; throws on an unknown one (a typo in a bench option). */
export function persona(name: string): Persona {
  const found = PERSONAS.find((p) => p.name === name);
  if (found === undefined) throw new Error(`no persona "${name}"; the zoo has ${PERSONAS.map((p) => p.name).join(", ")}`);
  return found;
}
