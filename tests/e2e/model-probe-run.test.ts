/**
 * `evolve run` with a model: the harness probes the endpoint before the first generation,
 * records what it found in run.json, counts the probe's tokens against the run budget, and
 * tells every meta agent the mode (request.llm), so a model that refuses tools is never sent
 * them. Real engine, real openai client, the shared scripted server (the model zoo).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRunRecord } from "../../harness/src/archive/index.js";
import { startRun } from "../../harness/src/evolution/index.js";
import { PROBE_WORST_TOKENS } from "../../harness/src/llm/index.js";
import { memorySink, readConsistentRun } from "../evolution/run-helpers.js";
import { persona, startZooServer } from "../support/model-zoo/index.js";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";

let env: TestEngine;
let out: string;

beforeAll(async () => {
  env = await testEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-e2e-probe-"));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

function runWith(server: ScriptedOpenAIServer, runId: string, options: Record<string, unknown>) {
  const sink = memorySink();
  const io = { sink, signal: new AbortController().signal, env: { OPENAI_BASE_URL: server.baseURL }, engine: env.engine, session: env.session };
  return startRun({ task: "email-validation", workers: 1, seed: 2, evaluations: 0, out, runId, model: "scripted-model", ...options }, io).then((summary) => ({ summary, sink }));
}

describe("evolve run probes the model", () => {
  it("records the probe in run.json and tells the meta agent: a model that refuses tools gets edits asked as text", async () => {
    const server = await startZooServer(persona("tools-refused"));
    try {
      const { summary, sink } = await runWith(server, "probe-text", { generations: 2 });
      const runDir = join(out, "probe-text");
      const record = await readRunRecord(runDir);
      expect(record.ok && record.value.llmProbe).toMatchObject({ model: "scripted-model", skipped: null, answered: true, toolCalls: "refused", mode: "text" });
      expect(sink.text()).toMatch(/model probe: the seed will use edits as text \(the endpoint refuses requests with tools/);
      const { generations, problems } = await readConsistentRun(runDir);
      expect(problems).toEqual([]);
      const children = generations.filter((g) => g.parent !== null);
      expect(children).toHaveLength(2);
      for (const child of children) {
        expect(child.status.kind, JSON.stringify(child.status)).toBe("valid");
        expect(child.summary).toMatch(/^llm: .*format: search-replace text/);
      }
      // After the probe's two requests (one with tools, refused), no request carried tools.
      const requests = server.chatRequests();
      expect(requests.filter((r) => r.probe)).toHaveLength(2);
      expect(requests.filter((r) => !r.probe && r.body?.tools !== undefined)).toEqual([]);
      expect(summary.valid).toBe(2);
    } finally {
      await server.close();
    }
  }, 300_000);

  it("counts the probe's tokens against the run budget", async () => {
    // A model whose probe answers are expensive: with them counted, the budget has no room left for a child.
    const server = await startScriptedOpenAIServer(
      (request) => (request.probe ? { content: null, toolCalls: [{ name: "probe_echo", arguments: '{"word":"ready"}' }], promptTokens: 8_000, completionTokens: 100 } : { content: "never asked" }),
      { probes: "script" },
    );
    try {
      const budget = 20 * PROBE_WORST_TOKENS;
      const { summary } = await runWith(server, "probe-budget", { generations: 3, budgetTokens: budget });
      const record = await readRunRecord(join(out, "probe-budget"));
      expect(record.ok && record.value.llmProbe?.tokens).toEqual({ prompt: 32_000, completion: 400 });
      expect(budget - 32_400).toBeLessThan(256);
      expect(summary.end).toBe("budget_spent");
      expect(summary.children).toBe(0);
      expect(server.chatRequests().filter((r) => !r.probe)).toEqual([]);
    } finally {
      await server.close();
    }
  }, 300_000);
});
