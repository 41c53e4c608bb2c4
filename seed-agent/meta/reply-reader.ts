/**
 * What one model reply asks for, whatever its habits: native tool calls (arguments repaired
 * when one reading is possible), calls written in the text (text-calls.ts), or edits written
 * in the text (text-edits.ts). A call that ends before its arguments close was cut at the
 * token limit, whatever finish_reason says (vllm-project/vllm#58228 reports "tool_calls" for
 * such a reply): it is never run, and the model is asked for a smaller one.
 */
import type { LlmResponse, LlmTool, LlmToolCall } from "@evolve/contract";
import { readArguments } from "./loose-json.js";
import { callsInText, type TextCallFormat } from "./text-calls.js";
import { editsInText, type TextEdits } from "./text-edits.js";

/** A call to run: its arguments are strict JSON text by now. */
export interface ReadCall {
  /** The native call's id; null for a call written in the text. */
  id: string | null;
  name: string;
  arguments: string;
  /** What was repaired in its arguments (empty when nothing was). */
  repairs: string[];
  /** Why it must not run (cut, unreadable arguments); null when it may. */
  refused: string | null;
}

export interface ReadReply {
  /** "native tool calls", "hermes <tool_call> in the text", "SEARCH/REPLACE text", ... or "no call, no edit". */
  format: string;
  /** Native calls (each needs a tool message back) or calls read from the text (answered in one user message). */
  calls: ReadCall[];
  /** True when the calls came from the text. */
  fromText: boolean;
  /** Edits written in the text; only read when the reply has no call. */
  edits: TextEdits | null;
  /** Why the reply counts as cut at the token limit, or null. */
  cut: string | null;
  /** Problems met while reading (unreadable calls, calls ignored past the cap). */
  problems: string[];
}

const FORMAT_NAMES: Record<TextCallFormat, string> = {
  hermes: "hermes <tool_call> JSON in the text",
  "qwen3-xml": "Qwen3 <function=…> XML in the text",
  llama: "Llama <|python_tag|> JSON in the text",
  mistral: "Mistral [TOOL_CALLS] in the text",
  json: "a bare JSON call as the text",
};

/** Reads one reply; `paths` are the tree's files (a whole file written in the text must name one, or a new file in it). */
export function readReply(response: LlmResponse, tools: readonly LlmTool[], paths: ReadonlySet<string>): ReadReply {
  if (response.toolCalls.length > 0) return nativeCalls(response.toolCalls, response.finishReason);
  const inText = callsInText(response.content, tools);
  if (inText.calls.length > 0) {
    const calls = inText.calls.map((c): ReadCall => {
      if (c.cut) return { id: null, name: c.name, arguments: c.arguments, repairs: [], refused: cutReason(c.name) };
      const read = argumentsOf(c.arguments);
      return { id: null, name: c.name, arguments: read.json, repairs: [...c.repairs, ...read.repairs], refused: read.cut ? cutReason(c.name) : read.refused };
    });
    const format = FORMAT_NAMES[inText.calls[0]?.format ?? "json"];
    return { format, calls, fromText: true, edits: null, cut: firstCut(calls), problems: inText.problems };
  }
  const edits = editsInText(response.content, paths);
  const format = edits.formats.length > 0 ? edits.formats.map((f) => `${f} text`).join(" + ") : response.content.trim() === "" ? "an empty reply" : "prose (no call, no edit)";
  const unclosed = edits.problems.find((p) => p.includes("never closes") || p.includes("missing"));
  const cut = response.finishReason === "length" ? "the reply stopped at the token limit" : unclosed !== undefined && edits.blocks.length === 0 ? unclosed : null;
  return { format, calls: [], fromText: false, edits, cut, problems: [...inText.problems] };
}

function nativeCalls(toolCalls: readonly LlmToolCall[], finish: LlmResponse["finishReason"]): ReadReply {
  const calls = toolCalls.map((c): ReadCall => {
    const read = argumentsOf(c.arguments);
    // With finish_reason "length", the last call is the one the limit may have cut.
    const refused = read.cut ? cutReason(c.name) : read.refused;
    return { id: c.id, name: c.name, arguments: read.json, repairs: read.repairs, refused };
  });
  const cut = firstCut(calls) ?? (finish === "length" && calls.some((c) => c.refused !== null) ? "the reply stopped at the token limit" : null);
  return { format: "native tool calls", calls, fromText: false, edits: null, cut, problems: [] };
}

function argumentsOf(raw: string): { json: string; repairs: string[]; refused: string | null; cut: boolean } {
  const read = readArguments(raw);
  if (read.ok) return { json: JSON.stringify(read.value), repairs: read.repairs, refused: null, cut: false };
  if (read.cut) return { json: raw, repairs: [], refused: "cut", cut: true };
  return { json: raw, repairs: [], refused: `not run: its arguments could not be read (${read.reason}); send the call again with a JSON object`, cut: false };
}

function cutReason(name: string): string {
  return `the call to ${name} was cut off before its arguments closed (the reply hit the token limit); it was not run. Send a smaller call: one replace_in_file with only the lines that change`;
}

function firstCut(calls: readonly ReadCall[]): string | null {
  const cut = calls.find((c) => c.refused !== null && c.refused.includes("was cut off"));
  return cut?.refused ?? null;
}

/** A reply of the text strategy read as edits: edits written as text, or write_file / replace_in_file calls written in it. */
export function editsOfText(content: string, paths: ReadonlySet<string>, tools: readonly LlmTool[]): { edits: TextEdits; format: string; repairs: string[]; refused: string[] } {
  const inText = callsInText(content, tools);
  if (inText.calls.length === 0) {
    const edits = editsInText(content, paths);
    return { edits, format: edits.formats.length > 0 ? edits.formats.map((f) => `${f} text`).join(" + ") : "prose (no edit)", repairs: [], refused: [] };
  }
  const blocks: TextEdits["blocks"] = [];
  const repairs: string[] = [];
  const refused: string[] = [];
  for (const call of inText.calls) {
    const read = call.cut ? null : readArguments(call.arguments);
    if (read === null || !read.ok) {
      refused.push(read === null || read.cut ? cutReason(call.name) : `${call.name}: ${read.reason}`);
      continue;
    }
    repairs.push(...call.repairs, ...read.repairs);
    const path = read.value["path"];
    const index = blocks.length + 1;
    if (typeof path !== "string") continue;
    if (call.name === "write_file" && typeof read.value["content"] === "string") blocks.push({ index, path, search: "", replace: read.value["content"] });
    else if (call.name === "replace_in_file" && typeof read.value["search"] === "string" && typeof read.value["replace"] === "string" && read.value["search"] !== "") {
      blocks.push({ index, path, search: read.value["search"], replace: read.value["replace"] });
    }
  }
  const edits: TextEdits = { blocks, formats: [], problems: [...inText.problems, ...refused] };
  return { edits, format: FORMAT_NAMES[inText.calls[0]?.format ?? "json"], repairs, refused };
}
