/**
 * The LLM path end to end: a scripted OpenAI-compatible server, the real `openai` client
 * and broker, a test agent whose meta agent dumps its environment and asks the LLM once.
 * The answer must arrive in the child, the call in the transcript, the budgets must hold,
 * and the API key set in the host environment must appear nowhere the container reached.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTranscript } from "../../harness/src/archive/index.js";
import { startRun } from "../../harness/src/evolution/index.js";
import { leftoversOfRun, memorySink, readAllText, readConsistentRun } from "../evolution/run-helpers.js";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";

const AGENT = resolve(import.meta.dirname, "fixtures/llm-agent");
const SECRET = `sk-test-${Math.random().toString(36).slice(2)}-do-not-leak`;
const MARKER = `scripted-edit-${Math.random().toString(36).slice(2)}`;
const EDIT = `export const marker = "${MARKER}";\n`;

let env: TestEngine;
let out: string;
let server: ScriptedOpenAIServer;
const previousKey = process.env["OPENAI_API_KEY"];

beforeAll(async () => {
  env = await testEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-e2e-llm-"));
  server = await startScriptedOpenAIServer([{ content: EDIT, promptTokens: 500, completionTokens: 500 }]);
  // The key lives in this (host) process's environment, as a user would set it.
  process.env["OPENAI_API_KEY"] = SECRET;
});
afterAll(async () => {
  if (previousKey === undefined) delete process.env["OPENAI_API_KEY"];
  else process.env["OPENAI_API_KEY"] = previousKey;
  await server.close();
  await rm(out, { recursive: true, force: true });
});

function runWith(runId: string, options: Record<string, unknown>) {
  const sink = memorySink();
  const io = { sink, signal: new AbortController().signal, env: { ...process.env, OPENAI_BASE_URL: server.baseURL }, engine: env.engine, session: env.session };
  return startRun({ agent: AGENT, workers: 1, seed: 3, out, runId, model: "scripted-model", ...options }, io).then((summary) => ({ summary, sink }));
}

describe("evolve run with an OpenAI-compatible endpoint", () => {
  it("brings the model's edit into the child, records the call, stops when the run budget is spent, and leaks no key", async () => {
    const { summary, sink } = await runWith("llm-e2e", { generations: 3, budgetTokens: 1_200 });
    const runDir = join(out, "llm-e2e");
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);

    // 1000 of 1200 tokens spent by the first child: no useful call fits, so the run stops proposing.
    expect(summary.end).toBe("budget_spent");
    expect(generations.map((g) => g.id)).toEqual(["g0000", "g0001"]);
    const child = generations[1];
    expect(child?.status.kind, JSON.stringify(child?.status)).toBe("valid");
    expect(child?.tokens).toEqual({ prompt: 500, completion: 500 });
    expect(child?.model).toBe("scripted-model");
    expect(await readFile(join(runDir, "g0001", "snapshot", "task", "marker.ts"), "utf8")).toBe(EDIT);
    expect(await readFile(join(runDir, "g0001", "patch.diff"), "utf8")).toContain(MARKER);

    const requests = server.chatRequests();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers["authorization"]).toBe(`Bearer ${SECRET}`);
    const transcript = await readTranscript(runDir, "g0001");
    expect(transcript.problems).toEqual([]);
    const llm = transcript.entries.filter((e) => e.kind === "llm");
    expect(llm).toHaveLength(1);
    expect(llm[0]).toMatchObject({ outcome: "ok", response: { content: EDIT }, promptTokens: 500, completionTokens: 500 });
    expect(transcript.entries.some((e) => e.kind === "tool" && e["name"] === "write" && e["path"] === "task/marker.ts")).toBe(true);

    // The container's environment was dumped to its log and its tree: no key there, nor anywhere in the run.
    const dump = await readFile(join(runDir, "g0001", "snapshot", "meta", "env-dump.ts"), "utf8");
    expect(dump).toContain("PATH");
    expect(await readFile(join(runDir, "g0001", "logs", "self-modify.stderr"), "utf8")).toContain("env dump:");
    const leaks = (await readAllText(runDir)).filter((f) => f.text.includes(SECRET) || f.text.includes("OPENAI")).map((f) => f.path);
    expect(leaks).toEqual([]);
    expect(sink.text()).not.toContain(SECRET);
    expect(leftoversOfRun("llm-e2e")).toEqual({ containers: 0, volumes: 0 });
  });

  it("refuses a call larger than the budget without sending it; the agent gets the reason", async () => {
    const before = server.chatRequests().length;
    const { summary } = await runWith("llm-budget", { generations: 1, budgetTokens: 300 });
    const runDir = join(out, "llm-budget");
    expect(server.chatRequests().length).toBe(before);
    expect(summary.children).toBe(1);
    expect(summary.tokens).toBe(0);
    const refusal = await readFile(join(runDir, "g0001", "snapshot", "task", "refusal.ts"), "utf8");
    expect(refusal).toContain("LLM budget exhausted");
    const llm = (await readTranscript(runDir, "g0001")).entries.filter((e) => e.kind === "llm");
    expect(llm).toMatchObject([{ outcome: "refused", attempts: 0 }]);
    expect(String(llm[0]?.["error"])).toContain("No request was sent");
  });
});
