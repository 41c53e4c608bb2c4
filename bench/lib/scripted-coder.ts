/**
 * A slow scripted model for the benchmarks, served by the shared scripted server
 * (tests/support/scripted-openai-server.ts): it works like a small tool-using coder, three
 * turns a child, each answered after `latencyMs`. It reads the solver, moves its first
 * numeric knob to a value derived from the generation id (so every child is a new, valid
 * tree), and finishes. The same question gets the same answer.
 */
import type { RecordedRequest, ScriptedReply } from "../../tests/support/scripted-openai-server.js";

/** Model calls per child. */
export const CODER_TURNS = 3;

/** The reply function for `task` (its solver is task/<task>.ts in the seed agent). */
export function scriptedCoder(task: string, latencyMs: number): (request: RecordedRequest) => ScriptedReply {
  const solver = `task/${task}.ts`;
  return (request) => {
    const messages = request.body?.messages ?? [];
    const toolTurns = messages.filter((m) => m.role === "assistant").length;
    const briefing = String(messages[1]?.content ?? "");
    const usage = { promptTokens: 1_500 + 400 * toolTurns, completionTokens: 60, delayMs: latencyMs };
    const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
    if (toolTurns === 0) return { content: "Reading the solver first.", toolCalls: [call("read_file", { path: solver, startLine: 1, endLine: 40 })], ...usage };
    if (toolTurns === 1) {
      const knob = /^ {2}(\w+): (\d+), \/\/ evolve:range (\d+)\.\.(\d+) int$/m.exec(briefing);
      const generation = Number(/writing generation g(\d+)/.exec(briefing)?.[1] ?? 0);
      if (knob === null) return { content: null, toolCalls: [call("finish", { summary: "no knob found" })], ...usage };
      const [line, name, value, low, high] = knob as unknown as [string, string, string, string, string];
      const next = Number(low) + ((generation * 37 + Number(value)) % (Number(high) - Number(low) + 1));
      return { content: `Trying ${name} = ${next}.`, toolCalls: [call("replace_in_file", { path: solver, search: line, replace: line.replace(`: ${value},`, `: ${next},`) })], ...usage };
    }
    return { content: null, toolCalls: [call("finish", { summary: "moved one knob" })], ...usage };
  };
}
