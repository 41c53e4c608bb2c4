/**
 * Tool calls written into the reply's text, as models write them when the server has no
 * parser for their format:
 * - hermes: `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (Qwen and Hermes templates;
 *   ollama/ollama#5813, NousResearch/hermes-agent#3518);
 * - qwen3-xml: `<function=NAME><parameter=KEY>value</parameter></function>`, wrapped in
 *   `<tool_call>` or not (Qwen3-Coder; NousResearch/hermes-agent#7628, ggml-org/llama.cpp#15012);
 * - llama: `<|python_tag|>{"name": …, "parameters": {…}}` (Llama 3.1; vLLM's llama3_json parser);
 * - mistral: `[TOOL_CALLS][{"name": …, "arguments": {…}}]` or `[TOOL_CALLS]NAME[ARGS]{…}`
 *   (ml-explore/mlx-lm#1374);
 * - json: a reply that is nothing but `{"name": <one of the tools>, "arguments": {…}}`
 *   (ollama/ollama#11185).
 *
 * Markers are found with indexOf, each step moves forward, and the text and the number of
 * calls are capped: hostile text (huge or nested tags, a million tiny calls) costs one pass.
 */
import type { LlmTool } from "@evolve/contract";
import { JSON_LIMITS, parseJson, readArguments, readValue } from "./loose-json.js";

export type TextCallFormat = "hermes" | "qwen3-xml" | "llama" | "mistral" | "json";

/** One call found in the text: its arguments as JSON text (or as written, when unreadable). */
export interface TextCall {
  name: string;
  arguments: string;
  format: TextCallFormat;
  /** The call ends before it closes (the reply was cut): it must not run. */
  cut: boolean;
  /** What was repaired to read the call's envelope. */
  repairs: string[];
}

export interface TextCalls {
  calls: TextCall[];
  /** Calls that could not be read, or were left out, and why. */
  problems: string[];
}

/** Calls read from one reply at most; more are named as ignored. */
export const MAX_TEXT_CALLS = 16;
/** Problems kept from one reply; past them the scan stops (hostile text can hold thousands). */
const MAX_PROBLEMS = 8;
/** Parameters of one XML call at most. */
const MAX_PARAMETERS = 64;

const HERMES_OPEN = "<tool_call>";
const HERMES_CLOSE = "</tool_call>";
const FUNCTION_OPEN = "<function=";
const PYTHON_TAG = "<|python_tag|>";
const MISTRAL_TAG = "[TOOL_CALLS]";

/** Every call written in `content`, in the first format found. */
export function callsInText(content: string, tools: readonly LlmTool[]): TextCalls {
  const problems: string[] = [];
  let text = content;
  if (text.length > JSON_LIMITS.maxChars) {
    problems.push(`the reply has ${text.length} characters; only the first ${JSON_LIMITS.maxChars} were read`);
    text = text.slice(0, JSON_LIMITS.maxChars);
  }
  const out: TextCalls = { calls: [], problems };
  if (text.includes(HERMES_OPEN)) hermesCalls(text, tools, out);
  else if (text.includes(FUNCTION_OPEN)) xmlCalls(text, 0, text.length, tools, out);
  else if (text.includes(PYTHON_TAG)) jsonCalls(text, text.indexOf(PYTHON_TAG) + PYTHON_TAG.length, "llama", out);
  else if (text.includes(MISTRAL_TAG)) mistralCalls(text, out);
  else bareJsonCall(text, tools, out);
  if (out.calls.length > MAX_TEXT_CALLS) {
    problems.push(`${out.calls.length - MAX_TEXT_CALLS} more call(s) in the text were ignored (at most ${MAX_TEXT_CALLS} a turn)`);
    out.calls.length = MAX_TEXT_CALLS;
  }
  return out;
}

/** True when the result is already over a cap: the scans stop early. */
function full(out: TextCalls): boolean {
  return out.calls.length > MAX_TEXT_CALLS || out.problems.length >= MAX_PROBLEMS;
}

function hermesCalls(text: string, tools: readonly LlmTool[], out: TextCalls): void {
  for (let at = text.indexOf(HERMES_OPEN); at !== -1 && !full(out); at = text.indexOf(HERMES_OPEN, at)) {
    const bodyStart = at + HERMES_OPEN.length;
    const close = text.indexOf(HERMES_CLOSE, bodyStart);
    const bodyEnd = close === -1 ? text.length : close;
    const body = text.slice(bodyStart, bodyEnd).trim();
    if (body.startsWith(FUNCTION_OPEN)) xmlCalls(text, bodyStart, bodyEnd, tools, out);
    else if (body.startsWith("{")) envelopeCall(body, "hermes", close === -1, out);
    else if (body !== "" || close === -1) out.problems.push(`a <tool_call> tag holds no JSON call${close === -1 ? " and never closes" : ""}`);
    at = close === -1 ? text.length : close + HERMES_CLOSE.length;
  }
}

/** `{"name": …, "arguments" | "parameters": …}` as one call. */
function envelopeCall(body: string, format: TextCallFormat, unclosed: boolean, out: TextCalls): void {
  const read = readArguments(body);
  if (!read.ok) {
    if (read.cut || unclosed) out.calls.push({ name: nameOf(body), arguments: body, format, cut: true, repairs: [] });
    else out.problems.push(`a ${format} call could not be read: ${read.reason}`);
    return;
  }
  const call = callOf(read.value, format, read.repairs);
  if (typeof call === "string") out.problems.push(call);
  else out.calls.push({ ...call, cut: unclosed });
}

/** A call from a parsed envelope, or why it is not one. */
function callOf(value: Record<string, unknown>, format: TextCallFormat, repairs: string[]): Omit<TextCall, "cut"> | string {
  const name = value["name"];
  if (typeof name !== "string" || name === "") return `a ${format} call has no "name"`;
  const args = value["arguments"] ?? value["parameters"] ?? {};
  const text = typeof args === "string" ? args : JSON.stringify(args);
  return { name: name.slice(0, 200), arguments: text, format, repairs };
}

/** The "name" of a call whose JSON is cut, for the message that tells the model. */
function nameOf(body: string): string {
  const at = body.indexOf('"name"');
  if (at === -1) return "(unnamed)";
  const open = body.indexOf('"', body.indexOf(":", at) + 1);
  const close = open === -1 ? -1 : body.indexOf('"', open + 1);
  return open === -1 || close === -1 ? "(unnamed)" : body.slice(open + 1, Math.min(close, open + 65));
}

/** `<function=NAME>` … `</function>` calls between `from` and `to`. */
function xmlCalls(text: string, from: number, to: number, tools: readonly LlmTool[], out: TextCalls): void {
  for (let at = text.indexOf(FUNCTION_OPEN, from); at !== -1 && at < to && !full(out); ) {
    const nameEnd = text.indexOf(">", at);
    if (nameEnd === -1 || nameEnd > to) {
      out.calls.push({ name: "(unnamed)", arguments: "", format: "qwen3-xml", cut: true, repairs: [] });
      return;
    }
    const name = text.slice(at + FUNCTION_OPEN.length, nameEnd).trim().slice(0, 200);
    const close = text.indexOf("</function>", nameEnd);
    const end = close === -1 || close > to ? to : close;
    const params = xmlParameters(text.slice(nameEnd + 1, end), tools.find((t) => t.name === name));
    out.calls.push({ name, arguments: JSON.stringify(params), format: "qwen3-xml", cut: close === -1 || close > to, repairs: [] });
    at = end >= to ? -1 : text.indexOf(FUNCTION_OPEN, end);
  }
}

/** `<parameter=KEY>value</parameter>` pairs; a value may lack its closing tag (the next tag ends it). */
function xmlParameters(body: string, tool: LlmTool | undefined): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const open = "<parameter=";
  for (let at = body.indexOf(open), n = 0; at !== -1 && n < MAX_PARAMETERS; n++) {
    const keyEnd = body.indexOf(">", at);
    if (keyEnd === -1) break;
    const key = body.slice(at + open.length, keyEnd).trim().slice(0, 200);
    const next = body.indexOf(open, keyEnd);
    const close = body.indexOf("</parameter>", keyEnd);
    const end = close !== -1 && (next === -1 || close < next) ? close : next === -1 ? body.length : next;
    params[key] = coerce(trimOneBreak(body.slice(keyEnd + 1, end)), propertyType(tool, key));
    at = next;
  }
  return params;
}

function trimOneBreak(value: string): string {
  const start = value.startsWith("\n") ? 1 : 0;
  const end = value.endsWith("\n") ? value.length - 1 : value.length;
  return value.slice(start, Math.max(start, end));
}

/** The JSON Schema type of a tool's property, when the tool says. */
function propertyType(tool: LlmTool | undefined, key: string): string | null {
  const properties = tool?.parameters?.["properties"];
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return null;
  const schema = (properties as Record<string, unknown>)[key];
  if (typeof schema !== "object" || schema === null) return null;
  const type = (schema as Record<string, unknown>)["type"];
  return typeof type === "string" ? type : null;
}

/** XML parameter values are text; the tool's schema says when one is a number, a flag or JSON. */
function coerce(value: string, type: string | null): unknown {
  if ((type === "integer" || type === "number") && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  if (type === "boolean" && (value.trim() === "true" || value.trim() === "false")) return value.trim() === "true";
  if (type === "object" || type === "array") {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** JSON calls after a tag: objects separated by ";" or "," (Llama), or one array of them. */
function jsonCalls(text: string, from: number, format: TextCallFormat, out: TextCalls): void {
  for (let at = nextBracket(text, from); at !== -1 && !full(out); at = nextBracket(text, at)) {
    const read = readValue(text, at);
    if (!read.ok) {
      if (read.cut) out.calls.push({ name: nameOf(text.slice(at, at + 2_000)), arguments: text.slice(at), format, cut: true, repairs: [] });
      else out.problems.push(`a ${format} call could not be read: ${read.reason}`);
      return;
    }
    const value = parseJson(read.json);
    if (value === undefined) {
      out.problems.push(`a ${format} call is not JSON even after repairs`);
      return;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      if (full(out)) break;
      const call = typeof item === "object" && item !== null && !Array.isArray(item) ? callOf(item as Record<string, unknown>, format, read.repairs) : `a ${format} call is not an object`;
      if (typeof call === "string") out.problems.push(call);
      else out.calls.push({ ...call, cut: false });
    }
    // Only separators may follow one call before the next; prose ends the calls.
    const next = nextBracket(text, read.end);
    const gap = text.slice(read.end, next === -1 ? read.end : next).trim();
    if (gap !== "" && gap !== ";" && gap !== ",") return;
    at = read.end;
  }
}

function nextBracket(text: string, from: number): number {
  const brace = text.indexOf("{", from);
  const bracket = text.indexOf("[", from);
  if (brace === -1) return bracket;
  return bracket === -1 ? brace : Math.min(brace, bracket);
}

/** `[TOOL_CALLS][…]` (a JSON list) or `[TOOL_CALLS]NAME[ARGS]{…}` (the newer shape), once or repeated. */
function mistralCalls(text: string, out: TextCalls): void {
  for (let at = text.indexOf(MISTRAL_TAG); at !== -1 && !full(out); at = text.indexOf(MISTRAL_TAG, at + MISTRAL_TAG.length)) {
    const body = at + MISTRAL_TAG.length;
    const head = text.slice(body, body + 200);
    const open = body + (head.length - head.trimStart().length);
    const argsAt = head.indexOf("[ARGS]");
    if (text[open] !== "[" && argsAt !== -1) {
      const name = head.slice(0, argsAt).trim();
      const brace = text.indexOf("{", body + argsAt);
      const read = brace === -1 ? null : readValue(text, brace);
      if (read === null || !read.ok) out.calls.push({ name, arguments: brace === -1 ? "" : text.slice(brace, brace + 2_000), format: "mistral", cut: read === null || read.cut, repairs: [] });
      else out.calls.push({ name, arguments: read.json, format: "mistral", cut: false, repairs: read.repairs });
    } else if (text[open] === "[") {
      listCall(text, open, out);
    } else {
      out.problems.push("[TOOL_CALLS] is followed by neither a JSON list nor NAME[ARGS]");
    }
  }
}

/** One JSON list of calls at `open`. */
function listCall(text: string, open: number, out: TextCalls): void {
  const read = readValue(text, open);
  if (!read.ok) {
    if (read.cut) out.calls.push({ name: nameOf(text.slice(open, open + 2_000)), arguments: text.slice(open, open + 2_000), format: "mistral", cut: true, repairs: [] });
    else out.problems.push(`a mistral call list could not be read: ${read.reason}`);
    return;
  }
  const value = parseJson(read.json);
  for (const item of Array.isArray(value) ? value : []) {
    if (full(out)) return;
    const call = typeof item === "object" && item !== null && !Array.isArray(item) ? callOf(item as Record<string, unknown>, "mistral", read.repairs) : "a mistral call is not an object";
    if (typeof call === "string") out.problems.push(call);
    else out.calls.push({ ...call, cut: false });
  }
}

/** A reply that is only a JSON call naming one of the tools (never prose that happens to hold JSON). */
function bareJsonCall(text: string, tools: readonly LlmTool[], out: TextCalls): void {
  let body = text.trim();
  if (body.startsWith("```")) {
    body = body.slice(body.indexOf("\n") + 1).trimEnd();
    if (body.endsWith("```")) body = body.slice(0, -3).trim();
  }
  if (!body.startsWith("{") && !body.startsWith("[")) return;
  const read = readValue(body, 0);
  if (!read.ok || body.slice(read.end).trim() !== "") return;
  const value = parseJson(read.json);
  if (value === undefined) return;
  const items = Array.isArray(value) ? value : [value];
  const names = new Set(tools.map((t) => t.name));
  const calls = items.flatMap((item) => {
    if (typeof item !== "object" || item === null) return [];
    const call = callOf(item as Record<string, unknown>, "json", read.repairs);
    return typeof call !== "string" && names.has(call.name) ? [{ ...call, cut: false }] : [];
  });
  if (calls.length === items.length) out.calls.push(...calls);
}
