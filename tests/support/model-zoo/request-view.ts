/**
 * What a scripted model "sees" in a chat request: the tools offered, tool_choice, whether it
 * is the harness's model probe, the task and generation named in the briefing, the files
 * shown (briefing sections and read_file results), and what came back since its last reply.
 * Personas answer from this, not from a fixed script, so they follow the seed as it changes.
 */
import { isProbe, type RecordedRequest } from "../scripted-openai-server.js";

export interface OfferedTool {
  name: string;
  /** Property names the schema requires. */
  required: string[];
}

export interface RequestView {
  probe: boolean;
  tools: OfferedTool[];
  /** As sent: "auto", "required", { type, function: { name } }, or undefined. */
  toolChoice: unknown;
  maxTokens: number;
  /** From "# Task: NAME"; null when the request names none (the probe). */
  task: string | null;
  /** The task's description (the briefing's line after "# Task:"). */
  description: string;
  /** "g0007" from "you are writing generation g0007"; null when not said. */
  generation: string | null;
  /** Every file whose whole text the request shows. */
  files: Map<string, string>;
  /** The files of the tree, when the briefing lists them. */
  paths: string[];
  /** Replies the model already gave in this conversation. */
  turn: number;
  /** Everything sent after the model's last reply (tool results, the seed's messages). */
  since: string;
}

type Message = { role: string; content?: unknown; tool_call_id?: string };

/** Reads a recorded chat request. */
export function viewOf(request: RecordedRequest): RequestView {
  const body = request.body;
  const messages = (body?.messages ?? []) as Message[];
  const texts = messages.map((m) => (typeof m.content === "string" ? m.content : ""));
  const briefing = texts[1] ?? "";
  const lastReply = messages.map((m) => m.role).lastIndexOf("assistant");
  const files = new Map<string, string>();
  for (const text of texts) {
    briefingFiles(text, files);
    readResults(text, files);
  }
  return {
    probe: isProbe(body),
    tools: (body?.tools ?? []).map((t) => ({ name: t.function.name, required: requiredOf(t.function["parameters"]) })),
    toolChoice: body?.tool_choice,
    maxTokens: body?.max_tokens ?? body?.max_completion_tokens ?? 4_000,
    task: /^# Task: (\S+)/m.exec(briefing)?.[1] ?? null,
    description: /^# Task: \S+\n(.*)$/m.exec(briefing)?.[1] ?? "",
    generation: /writing generation (g\d+)/.exec(briefing)?.[1] ?? null,
    files,
    paths: pathsOf(briefing),
    turn: messages.filter((m) => m.role === "assistant").length,
    since: texts.slice(lastReply + 1).join("\n"),
  };
}

function requiredOf(parameters: unknown): string[] {
  const required = typeof parameters === "object" && parameters !== null ? (parameters as { required?: unknown }).required : undefined;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : [];
}

/** "## path\n```ts\n…\n```" sections of a briefing. */
function briefingFiles(text: string, into: Map<string, string>): void {
  for (const m of text.matchAll(/^## (\S+)\n```ts\n([\s\S]*?)\n```$/gm)) {
    const [, path, body] = m;
    if (path !== undefined && body !== undefined && !body.includes("more characters cut)")) into.set(path, body);
  }
}

/** A whole file as read_file returns it: "path, lines 1-N of N:" and numbered lines. */
function readResults(text: string, into: Map<string, string>): void {
  for (const m of text.matchAll(/^(\S+), lines 1-(\d+) of (\d+):\n/gm)) {
    const [, path, last, total] = m;
    if (path === undefined || last !== total) continue;
    const lines = text.slice((m.index ?? 0) + m[0].length).split("\n").slice(0, Number(total));
    into.set(path, lines.map((l) => l.replace(/^\d+\| ?/, "")).join("\n"));
  }
}

function pathsOf(briefing: string): string[] {
  const line = /^(?:Files of the agent tree|Files): (.*)$/m.exec(briefing)?.[1] ?? "";
  return line.split(",").map((p) => p.trim()).filter((p) => p !== "");
}
