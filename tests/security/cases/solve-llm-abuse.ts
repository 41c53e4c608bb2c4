/**
 * 22: a hostile task agent against its own solve-time model (a needsModel task's path:
 * evolution/context/solve-llm.ts gives `solve` a generation broker on a token budget; here
 * the real broker, the real openai client and the scripted endpoint). Inside `solve` it sends
 * malformed requests, floods 1,000 calls at once, asks 40 more times one by one (past its
 * budget), and hunts
 * for the API key (environment, the ctx.llm object, PID 1's environment). Each call must come
 * back as an answer or a refusal with its code, nothing malformed may reach the endpoint,
 * the tokens spent must stay within the generation's budget, the key must stay on the host,
 * and `solve` must still answer the grader.
 */
import { rm } from "node:fs/promises";
import { expect } from "vitest";
import { evaluateCandidate, loadTask } from "../../../harness/src/evaluation/index.js";
import { BudgetLedger, createGenerationBroker, resolveLlmSetup, serializeTranscript, UNLIMITED } from "../../../harness/src/llm/index.js";
import { writeJsBuild } from "../../support/js-build.js";
import { startScriptedOpenAIServer } from "../../support/scripted-openai-server.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const TASK = new URL("../fixtures/sec-sum/", import.meta.url).pathname;
const API_KEY = "sk-sec22-solve-time-key-0f9e8d";
const TOKEN_BUDGET = 3_000;
/** Each answer spends 500 tokens, so the budget allows a handful of calls. */
const USAGE = { promptTokens: 400, completionTokens: 100 };

const HOSTILE_SOLVE = `export async function solve(input, ctx) {
  if (input.a !== 2) return { sum: input.a + input.b };
  const codes = {};
  const count = (label, code) => { const key = label + ":" + code; codes[key] = (codes[key] ?? 0) + 1; };
  const ask = async (label, request) => {
    try { await ctx.llm.complete(request); count(label, "answered"); }
    catch (e) { count(label, e instanceof Error && typeof e.code === "string" ? e.code : "no-code"); }
  };
  const user = { role: "user", content: "hi" };
  const malformed = [
    { messages: [] },
    { messages: [user], tools: [{ name: "x", description: "t", parameters: "not an object" }] },
    { messages: [user, { role: "tool", toolCallId: "call_nobody_made", content: "pwned" }] },
    { messages: [user], tools: [{ name: "huge", description: "d".repeat(5 * 1024 * 1024) }] },
    { messages: [user], maxTokens: 10n },
  ];
  for (const request of malformed) await ask("malformed", request);
  await Promise.all(Array.from({ length: 1000 }, () => ask("flood", { messages: [user] })));
  for (let i = 0; i < 40; i++) await ask("more", { messages: [user], maxTokens: 400 });
  let seen = JSON.stringify(process.env) + Object.getOwnPropertyNames(ctx.llm).join() + Object.keys(ctx).join() + String(ctx.llm.complete);
  try { seen += (await import("node:fs")).readFileSync("/proc/1/environ", "utf8"); } catch {}
  return { sum: input.a + input.b, report: { codes, keySeen: seen.includes("sk-sec22") } };
}
`;

export async function solveLlmAbuse(c: CaseContext): Promise<CaseVerdict> {
  const server = await startScriptedOpenAIServer(() => ({ content: "4", ...USAGE, delayMs: 20 }));
  const build = await writeJsBuild({ task: HOSTILE_SOLVE });
  try {
    const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: API_KEY }, { model: "scripted-model" });
    if (!setup.available) throw new Error(setup.reason);
    const broker = createGenerationBroker({ setup, runLedger: new BudgetLedger("solve", UNLIMITED), generationLimits: { tokens: TOKEN_BUDGET, usd: null } });
    const task = await loadTask(TASK);
    const started = Date.now();
    const result = await evaluateCandidate({
      engine: c.env.engine, image: c.env.image, task, buildDir: build, labels: c.labels, runtime: c.runtime, seed: 1, heldout: false,
      evaluationTimeoutMs: 300_000, llmAvailable: true, onLlm: broker.onLlm,
    });
    broker.close();
    const containMs = Date.now() - started;
    const instances = result.stages.flatMap((s) => s.instances);
    const attacked = instances.find((i) => i.id === "after-1");
    // solve lived through its own attack and answered; the next instance was untouched.
    expect(instances.map((i) => [i.id, i.score])).toEqual([["after-1", 1], ["after-2", 1]]);
    const report = attacked?.artifact as { codes: Record<string, number>; keySeen: boolean };
    const { codes } = report;
    // Every call came back, as an answer or a refusal with its code; the budget allows six answers in all.
    const tally = (label: string): Record<"answered" | "busy" | "budget_exhausted" | "other", number> => {
      const of = (code: string): number => codes[`${label}:${code}`] ?? 0;
      const known = of("answered") + of("busy") + of("budget_exhausted");
      const all = Object.entries(codes).filter(([k]) => k.startsWith(`${label}:`)).reduce((n, [, v]) => n + v, 0);
      return { answered: of("answered"), busy: of("busy"), budget_exhausted: of("budget_exhausted"), other: all - known };
    };
    expect(codes["malformed:invalid_request"], JSON.stringify(codes)).toBe(5);
    const flood = tally("flood");
    const more = tally("more");
    expect(flood.answered + flood.busy + flood.budget_exhausted, JSON.stringify(codes)).toBe(1000);
    expect(more.answered + more.budget_exhausted, JSON.stringify(codes)).toBe(40);
    expect([flood.other, more.other]).toEqual([0, 0]);
    const answered = flood.answered + more.answered;
    expect(answered).toBeLessThanOrEqual(TOKEN_BUDGET / (USAGE.promptTokens + USAGE.completionTokens));
    expect(more.budget_exhausted).toBeGreaterThanOrEqual(40 - 6);
    // What reached the endpoint: the answered calls only, each with the key the host holds; within the budget.
    const sent = server.chatRequests();
    expect(sent.length).toBe(answered);
    expect(sent.every((r) => r.headers["authorization"] === `Bearer ${API_KEY}`)).toBe(true);
    const used = broker.usage();
    expect(used.promptTokens + used.completionTokens).toBeLessThanOrEqual(TOKEN_BUDGET);
    expect(report.keySeen).toBe(false);
    const transcript = serializeTranscript(broker.transcript());
    expect(transcript).not.toContain(API_KEY);
    expect(transcript.length).toBeLessThan(512 * 1024);
    return {
      outcome: `5/5 malformed refused; flood of 1,000: ${flood.busy} busy, ${flood.budget_exhausted} over budget, ${flood.answered} answered; 40 more: ${more.budget_exhausted} over budget; ${answered} calls reached the endpoint, ${used.promptTokens + used.completionTokens} of ${TOKEN_BUDGET} tokens; the key not seen in the container; solve still answered`,
      containMs,
    };
  } finally {
    await server.close();
    await rm(build, { recursive: true, force: true });
  }
}
