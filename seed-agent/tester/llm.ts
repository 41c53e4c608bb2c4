/**
 * Proposals from the model: the task, what a proposal is, the suite and the population go in;
 * a JSON array in a fenced block comes back. The reply is read defensively: anything that is
 * not usable JSON, too big, a duplicate or over the count is dropped, and the offline
 * proposals fill what is left (or stand in whole when the model fails).
 */
import type { Json, ProposeRequest, SolveContext } from "@evolve/contract";
import { limitOf } from "./offline.js";
import { tester } from "./params.js";

/** Characters of JSON the prompt quotes of the suite and of the visible split. */
const QUOTE_CAP = 6000;

function quote(value: Json, cap: number): string {
  const text = JSON.stringify(value);
  return text.length <= cap ? text : `${text.slice(0, cap)} … (${text.length - cap} more characters)`;
}

export function testerPrompt(request: ProposeRequest, limit: number): string {
  const suite = request.suite.map((t) => ({ proposal: t.proposal, passedBy: t.passedBy, failedBy: t.failedBy }));
  const population = request.population.map((c) => `${c.id} fails ${c.failing.length} of ${request.suite.length}`).join("; ");
  return [
    `You write test inputs that break programs solving this task. The best test is one a current program gets wrong.`,
    `# Task: ${request.task.name}\n${request.task.description}\nMetric: ${request.task.metric}`,
    `# What one proposal is\n${request.proposal.description}\nEach proposal at most ${request.proposal.maxBytes} bytes as JSON.`,
    `# Tests already in the suite (do not repeat them)\n${quote(suite, QUOTE_CAP)}`,
    `# Programs\n${population || "none yet"}`,
    `# Visible instances (do not repeat them)\n${quote(request.visible, QUOTE_CAP)}`,
    `Answer with a JSON array of at most ${limit} proposals in one fenced block:\n\`\`\`json\n[ ... ]\n\`\`\``,
  ].join("\n\n");
}

/** The JSON array of a reply: the last fenced block that parses, else the outermost brackets. */
export function parseProposals(reply: string): Json[] | null {
  const blocks = [...reply.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)].map((m) => m[1] ?? "").reverse();
  const first = reply.indexOf("[");
  const last = reply.lastIndexOf("]");
  if (first >= 0 && last > first) blocks.push(reply.slice(first, last + 1));
  for (const text of blocks) {
    try {
      const value = JSON.parse(text) as Json;
      if (Array.isArray(value)) return value;
    } catch {
      // the next candidate
    }
  }
  return null;
}

/** The model's proposals, topped up (or replaced) by `offline`. */
export async function llmProposals(request: ProposeRequest, ctx: SolveContext, offline: readonly Json[]): Promise<Json[]> {
  const limit = limitOf(request);
  let proposed: Json[] = [];
  try {
    const response = await ctx.llm.complete({
      messages: [{ role: "user", content: testerPrompt(request, limit) }],
      temperature: tester.llmTemperature,
      maxTokens: tester.llmMaxTokens,
    });
    proposed = parseProposals(response.content) ?? [];
    if (proposed.length === 0) ctx.log("tester: the model gave no JSON array of proposals; using the offline list");
  } catch (error) {
    ctx.log(`tester: the model failed (${error instanceof Error ? error.message : String(error)}); using the offline list`);
  }
  const seen = new Set([...request.suite.map((t) => JSON.stringify(t.proposal)), ...request.visible.map((v) => JSON.stringify(v))]);
  const out: Json[] = [];
  for (const p of [...proposed, ...offline]) {
    const text = JSON.stringify(p);
    if (out.length >= limit || text === undefined || seen.has(text) || new TextEncoder().encode(text).length > request.proposal.maxBytes) continue;
    seen.add(text);
    out.push(p);
  }
  return out;
}
