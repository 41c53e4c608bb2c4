/**
 * The conversations personas hold, driven by the request (request-view.ts): a tool-calling
 * model reads what it is shown, makes its change in its own call format, and finishes once
 * the results say it applied; a text-editing model answers every request with its edit in
 * its own text format; wrappers add server habits (HTTP errors with Retry-After, latency).
 */
import type { RecordedRequest, ScriptedReply, ScriptedToolCall } from "../scripted-openai-server.js";
import { planEdit, type Plan } from "./edit-plan.js";
import * as f from "./formats.js";
import type { RequestView } from "./request-view.js";

/** A persona's answer; `memory` is this server's own (a persona serves many servers, one per run). */
export type Reply = (view: RequestView, request: RecordedRequest, memory: Set<string>) => ScriptedReply;

/** How a tool-calling persona writes its calls. */
export type CallStyle = "native" | "hermes" | "qwen3-xml" | "llama" | "mistral" | "args-fenced" | "args-python" | "args-prose";
/** How a text-editing persona writes its edits. */
export type TextStyle = "search-replace" | "whole-file" | "unified-diff";

const WRITERS: Partial<Record<CallStyle, (args: Record<string, unknown>) => string>> = {
  "args-fenced": f.fencedTrailingComma,
  "args-python": f.pythonLiterals,
  "args-prose": f.trailingProse,
};

/** The calls written in `style`, as a reply. */
export function callsReply(style: CallStyle, calls: readonly f.Call[], say = "I'll make the change."): ScriptedReply {
  switch (style) {
    case "hermes":
      return { content: `${say}\n${f.hermes(calls)}` };
    case "qwen3-xml":
      return { content: `${say}\n${f.qwen3Xml(calls)}` };
    case "llama":
      return { content: f.llama(calls) };
    case "mistral":
      return { content: f.mistral(calls) };
    default:
      return { content: say, toolCalls: f.native(calls, WRITERS[style]) };
  }
}

/** True when the results since the model's last reply say its change was applied. */
export function applied(since: string): boolean {
  return /\b(?:replaced|wrote) (?:task|meta|tester)\//.test(since) || since.includes("Applied your edits");
}

/** The probe's requests: call the offered tool as this persona calls tools, or answer the word. */
export function probeReply(view: RequestView, style: CallStyle): ScriptedReply {
  const tool = view.tools[0];
  if (tool === undefined) return { content: "ready" };
  return callsReply(style, [{ name: tool.name, args: Object.fromEntries(tool.required.map((r) => [r, "ready"])) }], "");
}

/** What a request asks of an editing model: the plan, or the file to read first. */
function next(view: RequestView): { plan: Plan } | { read: string } | null {
  const plan = planEdit(view);
  if (plan !== null) return { plan };
  if (view.task === null) return null;
  return { read: view.paths.includes(`task/${view.task}.ts`) ? `task/${view.task}.ts` : "task/index.ts" };
}

/** A tool-calling model: plan, call, finish when applied; with no tools offered, SEARCH/REPLACE text. */
export function toolModel(style: CallStyle, edit: (view: RequestView, plan: Plan) => ScriptedReply | null = () => null): Reply {
  return (view) => {
    if (view.probe) return probeReply(view, style);
    const step = next(view);
    if (view.tools.length === 0) return step !== null && "plan" in step ? { content: f.searchReplace(step.plan) } : { content: "I have no change to propose." };
    if (applied(view.since)) return callsReply(style, [f.finishCall(step !== null && "plan" in step ? step.plan.summary : "done")], "Done.");
    if (step === null) return callsReply(style, [f.finishCall("nothing to change")]);
    if ("read" in step) return callsReply(style, [{ name: "read_file", args: { path: step.read } }], "Let me read the file first.");
    return edit(view, step.plan) ?? callsReply(style, f.planCalls(step.plan));
  };
}

/** A model that ignores tools and writes its edit as text, every time. */
export function textModel(style: TextStyle): Reply {
  const write = { "search-replace": f.searchReplace, "whole-file": f.wholeFiles, "unified-diff": f.unifiedDiff }[style];
  return (view) => {
    if (view.probe) return { content: "ready" };
    const plan = planEdit(view);
    return { content: plan === null ? "I have no change to propose." : write(plan) };
  };
}

/** Its first call cut at max_tokens: the arguments end mid-string; `finish` is what the server reports. */
export function cutFirst(finish: "length" | "tool_calls"): (view: RequestView, plan: Plan) => ScriptedReply | null {
  return (view, plan) => {
    if (view.since.includes("was cut off")) return null;
    const [first] = f.planCalls(plan);
    if (first === undefined) return null;
    // Asked to write the whole file, the model runs out of tokens in the middle of it.
    const whole = first.name === "write_file" ? first : { name: "write_file", args: { path: first.args["path"], content: `${String(plan.changes[0]?.before ?? "")}\n// ${"more ".repeat(400)}` } };
    const json = JSON.stringify(whole.args);
    const call: ScriptedToolCall = { name: whole.name, arguments: json.slice(0, Math.floor(json.length * 0.6)) };
    return { content: null, toolCalls: [call], finishReason: finish, completionTokens: view.maxTokens };
  };
}

/** Answers every new request with an HTTP error carrying Retry-After first, then as `inner` would (the retry is the same request). */
export function errorsFirst(inner: Reply, status: number, retryAfterSeconds: number): Reply {
  return (view, request, memory) => {
    if (memory.has(request.rawBody)) return inner(view, request, memory);
    memory.add(request.rawBody);
    return { kind: "error", status, message: status === 429 ? "Rate limit reached; retry after the interval in Retry-After" : "The server is overloaded", retryAfterSeconds };
  };
}

/** Every answer `delayMs` late. */
export function slow(inner: Reply, delayMs: number): Reply {
  return (view, request, memory) => ({ ...inner(view, request, memory), delayMs });
}

/** With reasoning beside every answer, as reasoning models served with a reasoning parser send it. */
export function reasoning(inner: Reply, field: "reasoning_content" | "reasoning"): Reply {
  return (view, request, memory) => {
    const reply = inner(view, request, memory);
    return reply.kind === "error" || reply.kind === "disconnect" ? reply : { ...reply, reasoning: `Let me think. The task is ${view.task ?? "a probe"}; the briefing shows ${view.files.size} file(s). A small, safe change is best.`, reasoningField: field };
  };
}
