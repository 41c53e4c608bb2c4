/**
 * One turn of the tool loop (tool-loop.ts): what the model's reply asks for is read
 * (reply-reader.ts), run or applied, and answered, whatever the reply's habits. Native calls
 * are answered by tool messages; calls written in the text by one user message; edits written
 * in the text are applied to the drafts, and when they all apply the work is done.
 */
import type { LlmMessage, LlmResponse, LlmTool } from "@evolve/contract";
import type { Drafts } from "./drafts.js";
import type { LoopGuard } from "./loop-guard.js";
import { readReply, type ReadCall, type ReadReply } from "./reply-reader.js";
import type { ReplyLog } from "./reply-log.js";
import { oneLine, syntaxErrors } from "./syntax.js";
import { applyEdits, type TextEdits } from "./text-edits.js";
import { nothingToRunPrompt, repairNote, textCallResults, textEditPrompt } from "./tool-prompts.js";
import type { ToolBox } from "./tools.js";

/** What a turn shares with the loop. */
export interface TurnState {
  messages: LlmMessage[];
  box: ToolBox;
  drafts: Drafts;
  guard: LoopGuard;
  log: ReplyLog;
  tools: readonly LlmTool[];
  paths: ReadonlySet<string>;
  resultChars: number;
  say(line: string): void;
}

/** How a turn ended: the model's finish summary, a reason to stop, or neither (go on). */
export interface TurnOutcome {
  finish: string | null;
  stop: string | null;
  /** The reply carried nothing to run or apply. */
  idle: boolean;
}

/** The model's own text sent back at most (a hostile reply must not grow every later request). */
const ECHO_CHARS = 20_000;

/** Handles one reply; never throws for what the model wrote. */
export async function takeTurn(state: TurnState, response: LlmResponse): Promise<TurnOutcome> {
  const reply = readReply(response, state.tools, state.paths);
  state.log.format(reply.format);
  if (reply.calls.length > 0) return runCalls(state, response, reply);
  state.messages.push({ role: "assistant", content: clip(response.content, ECHO_CHARS) });
  if (reply.edits !== null && reply.edits.blocks.length > 0) return applyTextEdits(state, reply.edits, response.content);
  state.messages.push({ role: "user", content: nothingToRunPrompt(reply.cut, response.content.trim() === "", [...reply.problems, ...(reply.edits?.problems ?? [])]) });
  return { finish: null, stop: state.guard.turn(), idle: true };
}

async function runCalls(state: TurnState, response: LlmResponse, reply: ReadReply): Promise<TurnOutcome> {
  // Sent back with the arguments as read: a server may refuse a conversation whose earlier
  // calls are not JSON (the reply to a cut call would then fail too), so a refused call's are "{}".
  const echoed = reply.calls.map((c) => ({ id: c.id ?? "", name: c.name, arguments: c.refused === null ? c.arguments : "{}" }));
  state.messages.push(reply.fromText ? { role: "assistant", content: clip(response.content, ECHO_CHARS) } : { role: "assistant", content: clip(response.content, ECHO_CHARS), toolCalls: echoed });
  let finish: string | null = null;
  let stop: string | null = null;
  const results: { name: string; text: string }[] = [];
  // Every call is answered, in order, even after a finish or a stop: the protocol wants a result for each.
  for (const [i, call] of reply.calls.entries()) {
    const result = await runOne(state, call, i);
    if (result.finish !== undefined && finish === null) finish = result.finish;
    stop ??= state.guard.call(call.name, call.arguments, result.text, call.refused !== null || result.text.startsWith("error:"));
    const text = clip(result.text, state.resultChars) + (call.repairs.length > 0 && call.refused === null ? repairNote(call.repairs) : "");
    if (reply.fromText) results.push({ name: call.name, text });
    else state.messages.push({ role: "tool", toolCallId: call.id ?? "", content: text });
  }
  if (reply.fromText) state.messages.push({ role: "user", content: textCallResults(reply.format, results) + problemsNote(reply.problems) });
  return { finish, stop: stop ?? state.guard.turn(), idle: false };
}

async function runOne(state: TurnState, call: ReadCall, i: number): Promise<{ text: string; finish?: string }> {
  state.log.repaired(call.repairs);
  if (call.refused !== null) {
    state.log.refused(call.refused.includes("was cut off") ? "cut call" : "unreadable arguments");
    state.say(`call ${call.name} not run: ${oneLine(call.refused, 120)}`);
    return { text: `error: ${call.refused}` };
  }
  const result = await state.box.run({ id: call.id ?? `text_call_${i + 1}`, name: call.name, arguments: call.arguments });
  state.say(`${call.name} → ${oneLine(result.text, 100)}`);
  return result;
}

/** Applies edits written in the text to the drafts; done when they all apply and parse. */
async function applyTextEdits(state: TurnState, edits: TextEdits, content: string): Promise<TurnOutcome> {
  const files = new Map<string, string>();
  for (const block of edits.blocks) {
    if (files.has(block.path)) continue;
    const text = await state.drafts.read(block.path);
    if (text !== null) files.set(block.path, text);
  }
  const before = new Map(files);
  const results = applyEdits(files, edits.blocks);
  const failed = results.flatMap((r) => (r.ok ? [] : [`edit ${r.block.index} (${r.block.path}): ${oneLine(r.reason, 300)}`]));
  const applied: string[] = [];
  for (const [path, text] of files) {
    if (text === before.get(path)) continue;
    const syntax = path.endsWith(".ts") ? await syntaxErrors(path, text) : [];
    if (syntax.length > 0) {
      failed.push(`${path} would no longer parse: ${syntax.slice(0, 3).join("; ")}`);
      continue;
    }
    await state.drafts.write(path, text);
    applied.push(path);
  }
  state.log.refused("text edit that did not apply", failed.length);
  if (applied.length > 0) state.guard.edited();
  state.say(`text edits (${edits.formats.join(", ")}): applied to ${applied.join(", ") || "nothing"}; ${failed.length} failed`);
  // Done only when nothing of the reply was left unread (a block cut at the limit is a problem, not an edit).
  if (failed.length === 0 && edits.problems.length === 0 && applied.length > 0) return { finish: summaryLine(content), stop: null, idle: false };
  state.messages.push({ role: "user", content: textEditPrompt(applied, [...failed, ...edits.problems]) });
  return { finish: null, stop: state.guard.turn(), idle: false };
}

/** The model's "SUMMARY: …" line, or its first line of prose. */
function summaryLine(content: string): string {
  const lines = content.split("\n", 200).map((l) => l.trim());
  const said = lines.find((l) => /^summary\s*:/i.test(l));
  if (said !== undefined) return said.replace(/^summary\s*:\s*/i, "");
  return lines.find((l) => l !== "" && !l.startsWith("```") && !l.startsWith("<<<") && !l.startsWith("---")) ?? "text edits";
}

function problemsNote(problems: readonly string[]): string {
  return problems.length === 0 ? "" : `\n\nAlso: ${problems.slice(0, 3).join("; ")}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters cut)`;
}
