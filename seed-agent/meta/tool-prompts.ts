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

/** When the model answered without calling a tool. */
export function noToolPrompt(cutAtLimit: boolean): string {
  return cutAtLimit
    ? "Your reply was cut at the token limit. Work in smaller steps: one change at a time with replace_in_file, and short text."
    : "Use the tools to make your change, then call finish with a one-line summary.";
}
