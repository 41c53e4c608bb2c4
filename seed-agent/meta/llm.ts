/**
 * The LLM strategy: show the model the feedback and the source, apply its SEARCH/REPLACE
 * blocks, and send every failure (no match, several matches, syntax error) back to it,
 * a bounded number of times. Whatever still fails is named in the summary. Edits the model
 * writes in another format (whole files, unified diffs, write_file calls in the text) are
 * applied too (reply-reader.ts), and the summary says which format it used.
 */
import type { ImproveContext, ImproveReport, ImproveRequest, LlmMessage } from "@evolve/contract";
import type { EditResult } from "./edits.js";
import { retryPrompt, systemPrompt, userPrompt } from "./prompts.js";
import { editsOfText } from "./reply-reader.js";
import { ReplyLog } from "./reply-log.js";
import { applyEdits } from "./text-edits.js";
import { toolDefinitions } from "./tools.js";
import { search } from "./search-params.js";
import { oneLine, syntaxErrors } from "./syntax.js";

/** An LLM run either changed files or says why it did not. */
export type LlmOutcome = { ok: true; report: ImproveReport } | { ok: false; note: string };

/** Runs the LLM strategy; never throws for model misbehaviour, only reports it. */
export async function llmImprove(request: ImproveRequest, ctx: ImproveContext): Promise<LlmOutcome> {
  const originals = new Map<string, string>();
  for (const path of await ctx.files.list()) originals.set(path, await ctx.files.read(path));
  const current = new Map(originals);
  const messages: LlmMessage[] = [
    { role: "system", content: systemPrompt() },
    { role: "user", content: userPrompt(request, current, search.promptCharCap) },
  ];
  let summary = "";
  let tokens = 0;
  const log = new ReplyLog();
  const tools = toolDefinitions(0);
  let pending: string[] = [];
  let stop = "";
  for (let round = 0; round <= search.llmRetries; round++) {
    if (request.budget.llmTokens !== null && tokens >= request.budget.llmTokens) { stop = "token budget spent"; break; }
    if (Date.now() > request.budget.deadline - 5000) { stop = "deadline near"; break; }
    let reply: string;
    try {
      const response = await ctx.llm.complete({ messages, temperature: search.temperature, maxTokens: search.maxTokens });
      tokens += response.promptTokens + response.completionTokens;
      reply = response.content;
    } catch (error) {
      stop = `llm error: ${oneLine(error instanceof Error ? error.message : String(error), 120)}`;
      break;
    }
    const said = /^\s*SUMMARY:\s*(.+)$/m.exec(reply)?.[1];
    if (said !== undefined && summary === "") summary = said;
    const applied = await applyReply(reply, current, tools, log);
    pending = applied.pending;
    ctx.log(`meta llm round ${round}: ${applied.blocks} blocks, ${pending.length} problems`);
    if (pending.length === 0) break;
    messages.push({ role: "assistant", content: reply }, { role: "user", content: applied.retry });
  }
  const reverted = await revertUnparsable(current, originals);
  const changedFiles = [...current].filter(([path, text]) => originals.get(path) !== text).map(([path]) => path);
  const problems = [
    ...(pending.length > 0 ? [`unresolved after ${search.llmRetries} retries: ${pending.join("; ")}`] : []),
    ...(reverted.length > 0 ? [`reverted for syntax errors: ${reverted.join(", ")}`] : []),
    ...(stop !== "" ? [stop] : []),
    log.describe(),
  ];
  if (changedFiles.length === 0) return { ok: false, note: oneLine(problems.join("; ") || "no edit", 300) };
  for (const path of changedFiles) await ctx.files.write(path, current.get(path) ?? "");
  const tail = problems.length > 0 ? `; ${problems.join("; ")}` : "";
  return { ok: true, report: { summary: oneLine(`llm: ${summary || "edit"} [edited ${changedFiles.join(", ")}${tail}]`, 600), changedFiles } };
}

/** One reply's edits applied to `current`: how many blocks it had, what went wrong, and the prompt that says so. */
async function applyReply(reply: string, current: Map<string, string>, tools: ReturnType<typeof toolDefinitions>, log: ReplyLog): Promise<{ blocks: number; pending: string[]; retry: string }> {
  const read = editsOfText(reply, new Set(current.keys()), tools);
  log.format(read.format);
  log.repaired(read.repairs);
  log.refused("unusable call in the text", read.refused.length);
  const { blocks } = read.edits;
  const malformed = read.edits.problems;
  const results: EditResult[] = applyEdits(current, blocks);
  const touched = new Set(results.filter((r) => r.ok).map((r) => r.block.path));
  const syntax: string[] = [];
  for (const p of [...touched].filter((p) => p.endsWith(".ts"))) syntax.push(...(await syntaxErrors(p, current.get(p) ?? "")));
  const pending = [
    ...results.flatMap((r) => (r.ok ? [] : [`block ${r.block.index} (${r.block.path}) ${oneLine(r.reason, 80)}`])),
    ...malformed,
    ...syntax,
    ...(blocks.length === 0 && malformed.length === 0 ? ["no SEARCH/REPLACE block in the reply"] : []),
  ];
  return { blocks: blocks.length, pending, retry: pending.length === 0 ? "" : retryPrompt(results, syntax, malformed) };
}

/** A file left unparsable would fail the compile gate for the whole generation: each is put back as it was (a new one removed). */
async function revertUnparsable(current: Map<string, string>, originals: ReadonlyMap<string, string>): Promise<string[]> {
  const reverted: string[] = [];
  for (const [path, text] of current) {
    if (!path.endsWith(".ts") || text === originals.get(path) || (await syntaxErrors(path, text)).length === 0) continue;
    const original = originals.get(path);
    if (original === undefined) current.delete(path);
    else current.set(path, original);
    reverted.push(path);
  }
  return reverted;
}
