/**
 * Prompts of the LLM strategy: ordinary code a later generation may rewrite, like the
 * rest of the meta agent.
 */
import type { Attempt, ImproveRequest } from "@evolve/contract";
import type { EditResult } from "./edits.js";

const EDIT_FORMAT = `Answer with one line "SUMMARY: <what you change and why, one line>", then your edits.
Each edit is a SEARCH/REPLACE block: a line with the file path (relative to the agent tree), then

<<<<<<< SEARCH
exact lines of the current file (including indentation), occurring exactly once
=======
the new lines
>>>>>>> REPLACE

To create or rewrite a whole file, leave the SEARCH part empty. Keep edits small and focused.`;

/** Who the model is and the rules every edit must keep (both LLM strategies start with it). */
export const AGENT_RULES = `You improve a self-modifying TypeScript agent. Its task agent (task/) solves benchmark instances through \`solve(input, ctx)\`; its meta agent (meta/, the code that is calling you) rewrites the agent tree, its own code included.
Rules: strict TypeScript (noUncheckedIndexedAccess, exactOptionalPropertyTypes), ESM imports with explicit .js extensions, only relative imports, \`import type\` from "@evolve/contract", "ts-morph" and "typescript"; no node: modules, no network, no file system except through ctx.files. Keep every exported signature. Respect ctx.deadline.`;

/** The system message: who the model is and the one edit format it must use. */
export function systemPrompt(): string {
  return `${AGENT_RULES}\n${EDIT_FORMAT}`;
}

export function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters cut)`;
}

/** Source files in the order the model should see them: the task's solver first, then the meta agent. */
export function filePriority(task: string, paths: readonly string[]): string[] {
  const rank = (p: string): number =>
    p === `task/${task}.ts` ? 0 : p.startsWith("task/") && p.includes(task) ? 1 : p === "task/index.ts" ? 2
      : p === "meta/search-params.ts" ? 3 : p === "meta/prompts.ts" ? 4 : p.startsWith("meta/") ? 5 : p.startsWith("task/") ? 6 : 7;
  return [...paths].filter((p) => /\.(ts|md|json)$/.test(p)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** One attempt near the parent, in a line: who, what became of it, and its summary. */
function attemptLine(a: Attempt): string {
  const o = a.outcome;
  const signed = (x: number): string => `${x >= 0 ? "+" : ""}${x.toFixed(4)}`;
  const result =
    o.kind === "valid" ? `valid, visible ${o.score.toFixed(4)}${o.delta === null ? "" : ` (${signed(o.delta)} on its parent)`}`
      : o.kind === "stopped" ? `stopped after ${o.evaluated} of ${o.of} visible instances: could not reach ${o.target === null ? "its parent" : o.target.toFixed(4)}`
        : o.kind === "invalid" ? `invalid at ${o.stage}: ${o.code}${o.code === "empty_diff" ? " (changed nothing)" : ""}`
          : `the same tree as ${o.of}`;
  return `- ${a.id}, ${a.relation.replace("_", " ")} (made from ${a.parent}): ${result} — ${cap(a.summary, 300)}`;
}

/** What the model learns of the task, the parent's visible feedback, the lineage and what was already tried near the parent. */
export function briefing(request: ImproveRequest): string[] {
  const { task, feedback, lineage, generation } = request;
  const attempts = request.attempts ?? [];
  const worst = [...feedback.instances].sort((a, b) => a.score - b.score).slice(0, 10);
  return [
    `# Task: ${task.name}\n${task.description}\nMetric: ${task.metric}`,
    `# Parent ${generation.parent} (depth ${generation.depth}); you are writing generation ${generation.id}`,
    `Visible score of the parent: ${feedback.score ?? "not evaluated"}`,
    worst.length > 0 ? `Weakest instances:\n${worst.map((i) => `- ${i.id}: ${i.score} — ${cap(i.feedback, 300)}`).join("\n")}` : "",
    feedback.stderr.trim() !== "" ? `Stderr excerpt:\n${cap(feedback.stderr, 2000)}` : "",
    lineage.length > 0 ? `Lineage (oldest first; score, then the summary of the change that made it):\n${lineage.slice(-12).map((s) => `- ${s.id}: ${s.score ?? "n/a"} — ${cap(s.summary, 200)}`).join("\n")}` : "",
    attempts.length > 0 ? `Already tried near this parent (its other children first, newest first): do not repeat a change that failed, changed nothing or scored lower; build on one that helped.\n${attempts.map(attemptLine).join("\n")}` : "",
  ].filter((p) => p !== "");
}

/** The first user message: feedback, lineage and as much source as fits in `charCap`. */
export function userPrompt(request: ImproveRequest, files: ReadonlyMap<string, string>, charCap: number): string {
  const { task } = request;
  const parts = [...briefing(request), `Files: ${[...files.keys()].join(", ")}`];
  let used = parts.join("\n\n").length;
  const omitted: string[] = [];
  for (const path of filePriority(task.name, [...files.keys()])) {
    const body = files.get(path) ?? "";
    const section = `## ${path}\n\`\`\`ts\n${body}\n\`\`\``;
    if (used + section.length > charCap) { omitted.push(`${path} (${body.length} chars)`); continue; }
    parts.push(section);
    used += section.length;
  }
  if (omitted.length > 0) parts.push(`Not shown (prompt size cap): ${omitted.join(", ")}`);
  parts.push(`Make a change likely to raise the score on ${task.name}. ${EDIT_FORMAT}`);
  return parts.join("\n\n");
}

/** The retry message: which blocks failed and why, so the model resends only those. */
export function retryPrompt(results: readonly EditResult[], syntax: readonly string[], malformed: readonly string[]): string {
  const applied = results.filter((r) => r.ok).map((r) => r.block.index);
  const lines = [
    applied.length > 0 ? `Applied blocks: ${applied.join(", ")}; do not resend them.` : "No block was applied.",
    ...results.flatMap((r) => (r.ok ? [] : [`Block ${r.block.index} (${r.block.path}) failed: ${r.reason}`])),
    ...malformed.map((m) => `Malformed: ${m}`),
    ...syntax.map((s) => `Syntax error after applying: ${s}`),
    results.length === 0 && malformed.length === 0 ? "Your reply contained no SEARCH/REPLACE block." : "",
    "Send corrected SEARCH/REPLACE blocks for the failures only, against the current file text.",
  ];
  return lines.filter((l) => l !== "").join("\n");
}
