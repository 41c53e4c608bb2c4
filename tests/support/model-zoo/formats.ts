/**
 * How a scripted model writes a planned change (edit-plan.ts): as native tool calls, as calls
 * written in its text (Hermes, Qwen3 XML, Llama, Mistral), as text edits (SEARCH/REPLACE, whole
 * files, unified diff: aider's formats), and with the argument habits of sloppy models.
 */
import type { ScriptedToolCall } from "../scripted-openai-server.js";
import { filesAfter, type Plan } from "./edit-plan.js";

/** A call before it is written in some format. */
export interface Call {
  name: string;
  args: Record<string, unknown>;
}

/** The calls that make a plan: write_file for a new file, replace_in_file for each change of an existing one. */
export function planCalls(plan: Plan): Call[] {
  return plan.changes.map((c) =>
    c.before === null ? { name: "write_file", args: { path: c.path, content: c.replace } } : { name: "replace_in_file", args: { path: c.path, search: c.search, replace: c.replace } },
  );
}

export function finishCall(summary: string): Call {
  return { name: "finish", args: { summary } };
}

/** Native calls with strict JSON arguments (or as `write` spells them). */
export function native(calls: readonly Call[], write: (args: Record<string, unknown>) => string = (a) => JSON.stringify(a)): ScriptedToolCall[] {
  return calls.map((c) => ({ name: c.name, arguments: write(c.args) }));
}

/** `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, one per call (Hermes and Qwen2.5 templates). */
export function hermes(calls: readonly Call[]): string {
  return calls.map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.args })}\n</tool_call>`).join("\n");
}

/** Qwen3-Coder's XML: `<function=NAME><parameter=KEY>value</parameter></function>` inside `<tool_call>`. */
export function qwen3Xml(calls: readonly Call[]): string {
  return calls
    .map((c) => {
      const params = Object.entries(c.args).map(([k, v]) => `<parameter=${k}>\n${typeof v === "string" ? v : JSON.stringify(v)}\n</parameter>`);
      return `<tool_call>\n<function=${c.name}>\n${params.join("\n")}\n</function>\n</tool_call>`;
    })
    .join("\n");
}

/** Llama 3.1's custom tool calls: `<|python_tag|>` then JSON objects with "parameters", separated by "; ". */
export function llama(calls: readonly Call[]): string {
  return `<|python_tag|>${calls.map((c) => JSON.stringify({ name: c.name, parameters: c.args })).join("; ")}`;
}

/** Mistral's `[TOOL_CALLS]` and a JSON list of calls. */
export function mistral(calls: readonly Call[]): string {
  return `[TOOL_CALLS]${JSON.stringify(calls.map((c) => ({ name: c.name, arguments: c.args })))}`;
}

/** Arguments in a ```json fence, with trailing commas. */
export function fencedTrailingComma(args: Record<string, unknown>): string {
  const body = Object.entries(args).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  return `\`\`\`json\n{\n${body.join("\n")}\n}\n\`\`\``;
}

/** Python's literals: single-quoted strings, and a None and a True beside the real arguments. */
export function pythonLiterals(args: Record<string, unknown>): string {
  const quote = (v: unknown): string => (typeof v === "string" ? `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'` : JSON.stringify(v));
  const body = Object.entries(args).map(([k, v]) => `'${k}': ${quote(v)}`);
  return `{${[...body, "'dry_run': None", "'verbose': True"].join(", ")}}`;
}

/** Strict JSON followed by a sentence of prose. */
export function trailingProse(args: Record<string, unknown>): string {
  return `${JSON.stringify(args)}\n\nThis makes the change described above.`;
}

/** SEARCH/REPLACE blocks under their paths, after a SUMMARY line. */
export function searchReplace(plan: Plan): string {
  const blocks = plan.changes.map((c) => `${c.path}\n<<<<<<< SEARCH\n${c.before === null ? "" : c.search}${c.before === null ? "" : "\n"}=======\n${c.replace.replace(/\n$/, "")}\n>>>>>>> REPLACE`);
  return `SUMMARY: ${plan.summary}\n\n${blocks.join("\n\n")}\n`;
}

/** Each changed file whole, in a fence under its path (aider's "whole" format). */
export function wholeFiles(plan: Plan): string {
  const files = [...filesAfter(plan)].map(([path, f]) => `${path}\n\`\`\`ts\n${f.after.replace(/\n$/, "")}\n\`\`\``);
  return `SUMMARY: ${plan.summary}\n\nHere are the updated files.\n\n${files.join("\n\n")}\n`;
}

/** A unified diff of the plan, with a line of context on each side of every change. */
export function unifiedDiff(plan: Plan): string {
  const sections: string[] = [];
  for (const [path, f] of filesAfter(plan)) {
    if (f.before === null) {
      const lines = f.after.replace(/\n$/, "").split("\n");
      sections.push(`--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`);
      continue;
    }
    const hunks = plan.changes.filter((c) => c.path === path && c.before !== null).map((c) => hunk(c.before ?? "", c.search, c.replace));
    sections.push(`--- a/${path}\n+++ b/${path}\n${hunks.join("\n")}`);
  }
  return `SUMMARY: ${plan.summary}\n\n\`\`\`diff\n${sections.join("\n")}\n\`\`\`\n`;
}

function hunk(before: string, search: string, replace: string): string {
  const lines = before.split("\n");
  const at = before.slice(0, before.indexOf(search)).split("\n").length - 1;
  const removed = search.split("\n");
  const added = replace.split("\n");
  const above = at > 0 ? [` ${lines[at - 1] ?? ""}`] : [];
  const below = at + removed.length < lines.length ? [` ${lines[at + removed.length] ?? ""}`] : [];
  const start = at + 1 - above.length;
  const header = `@@ -${start},${removed.length + above.length + below.length} +${start},${added.length + above.length + below.length} @@`;
  return [header, ...above, ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`), ...below].join("\n");
}
