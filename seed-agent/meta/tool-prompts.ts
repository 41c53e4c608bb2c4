/**
 * Prompts of the tool loop (tool-loop.ts): ordinary code a later generation may rewrite,
 * like the rest of the meta agent.
 */
import type { ImproveRequest } from "@evolve/contract";
import { AGENT_RULES, briefing, cap, filePriority } from "./prompts.js";

/** The system message: the rules, the tools and how the work ends. */
export function toolSystemPrompt(steps: number, evaluations: number): string {
  const evaluate =
    evaluations > 0
      ? `evaluate checks the current draft as the harness checks a child and scores it on visible instances (at most ${evaluations} times); the best evaluated draft is kept, not the last one, so evaluate a change you believe in before you finish.`
      : "Drafts cannot be evaluated in this generation: read carefully and keep changes small and safe.";
  return `${AGENT_RULES}
You work through tools on the agent tree: list_files, read_file, replace_in_file, write_file${evaluations > 0 ? ", evaluate" : ""} and finish. ${evaluate}
Work in small steps: read what you change, change it with replace_in_file, and call finish with a one-line summary (what changed and why) when you are done. You have at most ${steps} turns; several tool calls in one turn are fine.`;
}

/** The first user message: the briefing, the file list, and the task's solver (the file most worth changing). */
export function toolUserPrompt(request: ImproveRequest, paths: readonly string[], solver: { path: string; text: string } | null, charCap: number): string {
  const parts = [...briefing(request), `Files of the agent tree: ${filePriority(request.task.name, paths).join(", ")}`];
  if (solver !== null) parts.push(`## ${solver.path}\n\`\`\`ts\n${cap(solver.text, charCap)}\n\`\`\``);
  parts.push(`Make a change likely to raise the score on ${request.task.name}.`);
  return parts.join("\n\n");
}

/** When a reply carried nothing to run and no edit: the nudge, told why when the reply was cut or empty. */
export function nothingToRunPrompt(cut: string | null, empty: boolean, problems: readonly string[]): string {
  const why = problems.length > 0 ? ` (${problems.slice(0, 3).join("; ")})` : "";
  if (cut !== null && empty) return "Your reply stopped at the token limit before it said anything (a long thought uses the limit up). Answer at once, shortly: one tool call.";
  if (cut !== null) return `Your reply was cut at the token limit${why}. Work in smaller steps: one change at a time with replace_in_file, and short text.`;
  return `Nothing in your reply could be run or applied${why}. Use the tools to make your change, then call finish with a one-line summary.`;
}

/** The results of calls written in the reply's text, sent back as one user message (they have no call ids). */
export function textCallResults(format: string, results: readonly { name: string; text: string }[]): string {
  const lines = results.map((r, i) => `[${i + 1}] ${r.name} →\n${r.text}`);
  return `Your reply wrote ${results.length} tool call(s) in its text (${format}); they were run in order:\n\n${lines.join("\n\n")}`;
}

/** Told beside a call's result when its arguments needed repairs, so the model can send strict JSON next time. */
export function repairNote(repairs: readonly string[]): string {
  return `\n(note: your arguments were not strict JSON — ${repairs.join(", ")} — and were read as the JSON above intends; please send strict JSON)`;
}

/** When edits written in the text did not all apply. */
export function textEditPrompt(applied: readonly string[], failed: readonly string[]): string {
  const head = applied.length > 0 ? `Applied your edits to ${applied.join(", ")}.` : "None of the edits in your reply applied.";
  return `${head}\n${failed.map((f) => `- ${f}`).join("\n")}\nFix these (replace_in_file, or corrected SEARCH/REPLACE blocks against the current text), then call finish.`;
}
