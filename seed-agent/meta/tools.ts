/**
 * The tools the model works through in the tool loop: list, read (whole or a line range),
 * replace exact text, write a whole file, evaluate the draft, finish. Every call gets a
 * result text; a malformed call (arguments that are not JSON, a missing field, an unknown
 * tool, a path outside the tree) gets an error the model can act on, never an exception.
 */
import type { EvaluateRequest, ImproveContext, LlmTool, LlmToolCall } from "@evolve/contract";
import type { Drafts } from "./drafts.js";
import { applyBlocks, safePath } from "./edits.js";
import { syntaxErrors } from "./syntax.js";

/** What one call did: its result for the model, and the summary when it was `finish`. */
export interface ToolResult {
  text: string;
  finish?: string;
}

const str = { type: "string" } as const;

/** Tool definitions; `evaluate` only when this generation may evaluate drafts. */
export function toolDefinitions(evaluations: number): LlmTool[] {
  const tools: LlmTool[] = [
    { name: "list_files", description: "List every file of the agent tree.", parameters: { type: "object", properties: {} } },
    {
      name: "read_file",
      description: "Read a file, whole or a range of lines. Lines come numbered ('12| text'); the numbers are not part of the file.",
      parameters: { type: "object", properties: { path: str, startLine: { type: "integer" }, endLine: { type: "integer" } }, required: ["path"] },
    },
    {
      name: "replace_in_file",
      description: "Replace text in a file. `search` must be copied exactly from the file (indentation included) and occur exactly once.",
      parameters: { type: "object", properties: { path: str, search: str, replace: str }, required: ["path", "search", "replace"] },
    },
    {
      name: "write_file",
      description: "Create a file or overwrite it whole. Prefer replace_in_file for changes to existing files.",
      parameters: { type: "object", properties: { path: str, content: str }, required: ["path", "content"] },
    },
    { name: "finish", description: "End the work with a one-line summary of what changed and why.", parameters: { type: "object", properties: { summary: str }, required: ["summary"] } },
  ];
  if (evaluations > 0) {
    tools.splice(4, 0, {
      name: "evaluate",
      description: `Check the current draft (policy, compile, signatures, import) and score it on visible instances. At most ${evaluations} times; the best evaluated draft is the one kept.`,
      parameters: {
        type: "object",
        properties: {
          instances: {
            description: '"stage1" (the default: a small subset), "visible" (every visible instance), or a list of visible instance ids.',
            anyOf: [{ type: "string", enum: ["stage1", "visible"] }, { type: "array", items: str }],
          },
        },
      },
    });
  }
  return tools;
}

/** Runs the model's tool calls against the workspace. */
export class ToolBox {
  readonly #ctx: ImproveContext;
  readonly #drafts: Drafts;
  readonly #resultChars: number;
  readonly #names: string[];

  constructor(ctx: ImproveContext, drafts: Drafts, resultChars: number, tools: readonly LlmTool[]) {
    this.#ctx = ctx;
    this.#drafts = drafts;
    this.#resultChars = resultChars;
    this.#names = tools.map((t) => t.name);
  }

  /** One call's result; never throws. */
  async run(call: LlmToolCall): Promise<ToolResult> {
    if (!this.#names.includes(call.name)) return error(`unknown tool "${call.name}"; the tools are ${this.#names.join(", ")}`);
    let args: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(call.arguments === "" ? "{}" : call.arguments);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return error("the arguments must be a JSON object");
      args = parsed as Record<string, unknown>;
    } catch (e) {
      return error(`the arguments are not valid JSON (${e instanceof Error ? e.message : String(e)}); send the call again with a JSON object`);
    }
    try {
      return await this.#dispatch(call.name, args);
    } catch (e) {
      return error(e instanceof Error ? e.message : String(e));
    }
  }

  async #dispatch(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    switch (name) {
      case "list_files":
        return { text: (await this.#ctx.files.list()).join("\n") };
      case "read_file":
        return this.#read(field(args, "path"), args["startLine"], args["endLine"]);
      case "replace_in_file":
        return this.#replace(field(args, "path"), field(args, "search"), field(args, "replace"));
      case "write_file":
        return this.#write(field(args, "path"), field(args, "content"));
      case "evaluate":
        return this.#evaluate(args["instances"]);
      case "finish":
        return { text: "finished", finish: field(args, "summary") };
      default:
        return error(`unknown tool "${name}"`);
    }
  }

  async #read(path: string, start: unknown, end: unknown): Promise<ToolResult> {
    const text = await this.#drafts.read(checkedPath(path));
    if (text === null) return error(`${path} does not exist; list_files shows the files`);
    const lines = text.split("\n");
    const first = Math.max(1, typeof start === "number" ? Math.floor(start) : 1);
    const last = Math.min(lines.length, typeof end === "number" ? Math.floor(end) : lines.length);
    const numbered = lines.slice(first - 1, last).map((l, i) => `${first + i}| ${l}`).join("\n");
    const head = `${path}, lines ${first}-${last} of ${lines.length}:\n`;
    if (head.length + numbered.length <= this.#resultChars) return { text: head + numbered };
    const shown = numbered.slice(0, this.#resultChars - head.length);
    const lastShown = first + shown.split("\n").length - 2;
    return { text: `${head}${shown.slice(0, shown.lastIndexOf("\n"))}\n… cut at line ${lastShown}: read a range (startLine, endLine) for the rest` };
  }

  async #replace(path: string, search: string, replace: string): Promise<ToolResult> {
    const text = await this.#drafts.read(checkedPath(path));
    if (text === null) return error(`${path} does not exist; write_file creates a file`);
    if (search === "") return error("search is empty; copy the exact text to replace from the file");
    const files = new Map([[path, text]]);
    const [result] = applyBlocks(files, [{ index: 1, path, search, replace }]);
    if (result === undefined || !result.ok) return error(result?.reason ?? "not applied");
    return this.#saved(path, files.get(path) ?? text, "replaced");
  }

  async #write(path: string, content: string): Promise<ToolResult> {
    return this.#saved(checkedPath(path), content, "wrote");
  }

  async #saved(path: string, text: string, verb: string): Promise<ToolResult> {
    await this.#drafts.write(path, text);
    const syntax = path.endsWith(".ts") ? await syntaxErrors(path, text) : [];
    if (syntax.length === 0) return { text: `${verb} ${path}` };
    return { text: `${verb} ${path}, but it no longer parses; fix it (an unparsable file is reverted at the end):\n${syntax.slice(0, 5).join("\n")}` };
  }

  async #evaluate(instances: unknown): Promise<ToolResult> {
    const request: EvaluateRequest = {};
    if (instances === "stage1" || instances === "visible") request.instances = instances;
    else if (Array.isArray(instances) && instances.every((i): i is string => typeof i === "string")) request.instances = instances;
    else if (instances !== undefined) return error('instances must be "stage1", "visible" or a list of instance ids');
    const result = await this.#ctx.evaluate(request);
    const left = `${result.remaining} evaluation(s) left`;
    switch (result.outcome) {
      case "refused":
        return { text: `evaluation refused: ${result.reason} (${left})` };
      case "invalid":
        return { text: `the draft fails the ${result.stage} check (${result.code}): ${cut(result.message, 2000)}\nAn invalid draft is never kept; fix it. (${left})` };
      case "evaluated": {
        const kept = this.#drafts.evaluated(result.score);
        const worst = [...result.instances].sort((a, b) => a.score - b.score).slice(0, 8);
        return {
          text: [
            `score ${result.score} on ${result.instances.length} instance(s)${kept ? " — the best draft so far, kept" : ` — not better than the best so far (${this.#drafts.best()?.score})`} (${left})`,
            ...worst.map((i) => `- ${i.id}: ${i.score} — ${cut(i.feedback, 300)}`),
            result.stderr.trim() === "" ? "" : `stderr:\n${cut(result.stderr, 1500)}`,
          ].filter((l) => l !== "").join("\n"),
        };
      }
    }
  }
}

function error(message: string): ToolResult {
  return { text: `error: ${message}` };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A required string argument; throws (turned into an error result) when it is missing. */
function field(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string") throw new Error(`"${name}" must be a string`);
  return value;
}

function checkedPath(path: string): string {
  if (!safePath(path)) throw new Error(`"${path}" is not a relative path inside the agent tree`);
  return path;
}
