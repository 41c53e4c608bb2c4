/**
 * The LLM strategy through tool calls (search.llmMode "tools"), in the style of the Darwin
 * Gödel Machine's coding agent: the model lists, reads and edits files of the workspace,
 * evaluates its draft, and finishes with a one-line summary. Bounded by a turn cap, the
 * token budget, the message cap and the deadline; it ends on the best evaluated draft (not
 * the last), or on the last draft when none was evaluated, and undoes files that no longer parse.
 * Whatever the model's habits (calls in the text, sloppy arguments, edits as text, cut calls,
 * loops), tool-turn.ts turns its reply into work or a reason, and the summary says which.
 */
import type { ImproveContext, ImproveReport, ImproveRequest, LlmMessage, LlmResponse } from "@evolve/contract";
import { Drafts } from "./drafts.js";
import { filePriority } from "./prompts.js";
import { search } from "./search-params.js";
import { oneLine, preloadParser, syntaxErrors } from "./syntax.js";
import { LoopGuard } from "./loop-guard.js";
import { ReplyLog } from "./reply-log.js";
import { toolSystemPrompt, toolUserPrompt } from "./tool-prompts.js";
import { takeTurn, type TurnState } from "./tool-turn.js";
import { ToolBox, toolDefinitions } from "./tools.js";

/** Changed files, or why not; `toolsUnsupported` when the endpoint refused tools before any edit (the text strategy may then run). */
export type ToolLoopOutcome = { ok: true; report: ImproveReport } | { ok: false; note: string; toolsUnsupported: boolean };

/** Time kept back at the end for restoring the best draft and returning. */
const DEADLINE_MARGIN_MS = 15_000;
/** The broker refuses more than 200 messages; a turn adds one, plus one per tool call. */
const MAX_MESSAGES = 180;
/** Turns in a row with nothing to run or apply before the loop gives up on the model. */
const MAX_IDLE_TURNS = 2;
const ELIDED_AFTER_CHARS = 300;

/** Runs the tool loop on the workspace; never throws for model misbehaviour, only reports it. */
export async function toolImprove(request: ImproveRequest, ctx: ImproveContext): Promise<ToolLoopOutcome> {
  const paths = await ctx.files.list();
  const solverPath = filePriority(request.task.name, paths)[0];
  const solver = solverPath === undefined ? null : { path: solverPath, text: await ctx.files.read(solverPath) };
  const tools = toolDefinitions(request.budget.evaluations);
  const drafts = new Drafts(ctx.files);
  const messages: LlmMessage[] = [
    { role: "system", content: toolSystemPrompt(search.toolSteps, request.budget.evaluations) },
    { role: "user", content: toolUserPrompt(request, paths, solver, search.toolResultChars) },
  ];
  let turns = 0;
  const state: TurnState = {
    messages,
    box: new ToolBox(ctx, drafts, search.toolResultChars, tools),
    drafts,
    guard: new LoopGuard(),
    log: new ReplyLog(),
    tools,
    paths: new Set(paths),
    resultChars: search.toolResultChars,
    say: (line) => ctx.log(`meta tools turn ${turns}: ${line}`),
  };
  let summary: string | null = null;
  let stop = "";
  let idle = 0;
  let tokens = 0;
  while (summary === null) {
    if (turns >= search.toolSteps) { stop = `no finish within ${search.toolSteps} turns`; break; }
    if (request.budget.llmTokens !== null && tokens >= request.budget.llmTokens) { stop = "token budget spent"; break; }
    if (Date.now() > request.budget.deadline - DEADLINE_MARGIN_MS) { stop = "deadline near"; break; }
    if (messages.length > MAX_MESSAGES) { stop = "conversation too long"; break; }
    compact(messages, search.toolContextChars);
    turns++;
    let response: LlmResponse;
    try {
      const pending = ctx.llm.complete({ messages, tools, temperature: search.temperature, maxTokens: search.maxTokens });
      // The request is on its way: load the parser while the model thinks, not before asking it.
      preloadParser();
      response = await pending;
    } catch (error) {
      const code = errorCode(error);
      const message = error instanceof Error ? error.message : String(error);
      if (code === "tools_unsupported" && drafts.changed().length === 0) return { ok: false, note: oneLine(message, 200), toolsUnsupported: true };
      stop = `llm ${code || "error"}: ${oneLine(message, 120)}`;
      break;
    }
    tokens += response.promptTokens + response.completionTokens;
    const outcome = await takeTurn(state, response);
    summary = outcome.finish;
    if (summary !== null) break;
    if (outcome.stop !== null) { stop = outcome.stop; break; }
    idle = outcome.idle ? idle + 1 : 0;
    if (idle > MAX_IDLE_TURNS) { stop = "the model stopped calling tools"; break; }
  }
  return wrapUp(drafts, summary, stop, turns, state.log.describe());
}

/** Ends on the best evaluated draft, undoes unparsable files, and reports. */
async function wrapUp(drafts: Drafts, summary: string | null, stop: string, turns: number, replies: string): Promise<ToolLoopOutcome> {
  const restored = await drafts.restoreBest();
  const reverted: string[] = [];
  for (const path of drafts.changed()) {
    const text = await drafts.read(path);
    if (!path.endsWith(".ts") || text === null || (await syntaxErrors(path, text)).length === 0) continue;
    await drafts.revert(path);
    reverted.push(path);
  }
  const best = drafts.best();
  const notes = [
    ...(best === null ? [] : [`best evaluated draft ${best.score} (evaluation ${best.at} of ${best.of})${restored ? ", restored" : ""}`]),
    ...(reverted.length > 0 ? [`reverted for syntax errors: ${reverted.join(", ")}`] : []),
    ...(stop === "" ? [] : [stop]),
    replies,
  ];
  const changedFiles = drafts.changed();
  if (changedFiles.length === 0) return { ok: false, note: oneLine(notes.join("; ") || "no edit", 300), toolsUnsupported: false };
  const said = summary === null || summary.trim() === "" ? "unfinished" : summary;
  const tail = notes.length > 0 ? `; ${notes.join("; ")}` : "";
  return { ok: true, report: { summary: oneLine(`llm-tools: ${said} [edited ${changedFiles.join(", ")}${tail}; ${turns} turns]`, 600), changedFiles } };
}

/** Keeps the conversation under `maxChars`: the oldest tool results and long call arguments are elided first. */
function compact(messages: LlmMessage[], maxChars: number): void {
  let total = messages.reduce((n, m) => n + size(m), 0);
  // Never the system message and the briefing, nor the last turn.
  for (let i = 2; i < messages.length - 4 && total > maxChars; i++) {
    const m = messages[i];
    if (m === undefined) continue;
    const before = size(m);
    // Results of calls written in the text come back as user messages: elided like tool results.
    if ((m.role === "tool" || m.role === "user") && m.content.length > ELIDED_AFTER_CHARS) {
      messages[i] = { ...m, content: `[elided ${m.content.length} characters to save room; read the file again if you need it]` };
    } else if (m.role === "assistant") {
      const toolCalls = m.toolCalls?.map((c) => (c.arguments.length > ELIDED_AFTER_CHARS ? { ...c, arguments: JSON.stringify({ elided: `${c.arguments.length} characters` }) } : c));
      const content = m.content.length > ELIDED_AFTER_CHARS ? `[elided ${m.content.length} characters of your earlier reply]` : m.content;
      messages[i] = toolCalls === undefined ? { role: "assistant", content } : { role: "assistant", content, toolCalls };
    }
    total -= before - size(messages[i] ?? m);
  }
}

function size(m: LlmMessage): number {
  return m.content.length + (m.role === "assistant" ? (m.toolCalls ?? []).reduce((n, c) => n + c.arguments.length, 0) : 0);
}

/** The contract's LlmError code, or "" for anything else. */
function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : "";
}
