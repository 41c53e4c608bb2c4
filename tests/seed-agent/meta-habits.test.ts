/**
 * The seed meta agent against every persona of the model zoo (tests/support/model-zoo), on the
 * in-memory engine (the real runner in a child process: what is tested is the seed's reading of
 * replies, not isolation; security case 19 runs the seed against hostile replies in a real
 * container), through the real broker and openai client: the harness's probe learns the
 * persona's mode, the seed is told it (request.llm) as a run would tell it, and the edit the
 * persona means ends up in the tree, whatever format it came in, with the summary naming the
 * format and the repairs; a persona that never edits ends its generation early, with a reason.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetLedger, createOpenAiPort, LlmBroker, probeModel, resolveLlmSetup, UNLIMITED } from "../../harness/src/llm/index.js";
import type { ModelProbe } from "../../harness/src/kernel/index.js";
import { createValidator } from "../../harness/src/validation/index.js";
import { filesAfter, persona, PERSONAS, planEdit, startZooServer, viewOf, type Persona } from "../support/model-zoo/index.js";
import type { ScriptedOpenAIServer } from "../support/scripted-openai-server.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { improveWithLlm, seedBuild, type AgentBuild } from "./llm-improve.js";

let env: TestEngine;
let work: string;
let seed: AgentBuild;

beforeAll(async () => {
  env = await memoryEngine();
  work = await mkdtemp(join(tmpdir(), "evolve-seed-habits-"));
  seed = await seedBuild(createValidator(), work);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A broker with real retries: Retry-After is honoured (1 s in the zoo), other waits kept short. */
function brokerFor(server: ScriptedOpenAIServer): { broker: LlmBroker; port: ReturnType<typeof createOpenAiPort> } {
  const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL }, { model: "scripted-model", retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 100 } });
  if (!setup.available) throw new Error(setup.reason);
  const port = createOpenAiPort(setup);
  return { port, broker: new LlmBroker({ port, model: setup.model, price: null, generationLimits: UNLIMITED, runLedger: new BudgetLedger("run", UNLIMITED) }) };
}

/** One generation of the seed with `p` as its model, told the probe's mode as a run tells it. */
async function generation(p: Persona, task: string) {
  const server = await startZooServer(p);
  try {
    const { broker, port } = brokerFor(server);
    const probe: ModelProbe = await probeModel(port);
    const run = await improveWithLlm({
      env,
      work,
      agent: seed,
      task,
      onLlm: broker.onLlm,
      onTool: broker.onTool,
      request: (r) => ({ ...r, task: { ...r.task, description: task === "template" ? "Sort a list of integers in ascending order. Input { numbers: number[] }." : r.task.description }, llm: { model: probe.model, mode: probe.mode, reason: probe.reason } }),
    });
    broker.close();
    const chats = server.chatRequests().filter((r) => !r.probe);
    return { ...run, probe, chats, transcript: broker.transcript() };
  } finally {
    await server.close();
  }
}

/** The files the persona meant to change, as it planned them from the first request it saw. */
function intended(g: Awaited<ReturnType<typeof generation>>): Map<string, string> {
  const first = g.chats[0];
  const plan = first === undefined ? null : planEdit(viewOf(first));
  expect(plan, "the persona saw a file to change").not.toBeNull();
  return new Map([...filesAfter(plan!)].map(([path, f]) => [path, f.after]));
}

describe("seed meta agent against the model zoo", () => {
  it("has at least 15 personas, each citing its source", () => {
    expect(PERSONAS.length).toBeGreaterThanOrEqual(15);
    for (const p of PERSONAS) expect(p.source, p.name).toMatch(/\S{6,}/);
    expect(new Set(PERSONAS.map((p) => p.name)).size).toBe(PERSONAS.length);
  });

  for (const p of PERSONAS.filter((x) => x.edits)) {
    it(`${p.name}: ${p.habit} → the edit it means, applied`, async () => {
      const g = await generation(p, "email-validation");
      expect(g.report.summary, g.stderr.slice(-3000)).toMatch(/^llm(-tools)?: /);
      for (const [path, text] of intended(g)) expect(g.tree.get(path), `${path} as ${p.name} meant it`).toBe(text.endsWith("\n") ? text : `${text}\n`);
      expect(g.report.summary).toMatch(/format: /);
      expect(g.chats.length).toBeLessThanOrEqual(6);
    }, 120_000);
  }

  for (const p of PERSONAS.filter((x) => !x.edits)) {
    it(`${p.name}: ${p.habit} → ends early with the reason, then the offline strategy`, async () => {
      const g = await generation(p, "email-validation");
      expect(g.report.summary).toMatch(/^offline: .*llm gave no applicable edit: .+/);
      expect(g.chats.length).toBeLessThanOrEqual(8);
    }, 120_000);
  }

  it("the probe tells each habit apart, and the seed's summary names what it read and repaired", async () => {
    const hermes = await generation(persona("hermes-in-text"), "email-validation");
    expect(hermes.probe).toMatchObject({ mode: "tools", toolCalls: "in_text", textFormat: "hermes" });
    expect(hermes.report.summary).toContain("format: hermes <tool_call> JSON in the text");
    const python = await generation(persona("args-python-literals"), "email-validation");
    expect(python.probe).toMatchObject({ mode: "tools", toolCalls: "native", argumentsJson: false });
    expect(python.report.summary).toMatch(/repaired: .*single-quoted strings.*Python literals/);
    const refused = await generation(persona("tools-refused"), "email-validation");
    expect(refused.probe).toMatchObject({ mode: "text", toolCalls: "refused" });
    // Told "text", the seed never sends tools to an endpoint that refuses them.
    expect(refused.chats.every((r) => r.body?.tools === undefined)).toBe(true);
    const choice = await generation(persona("tool-choice-refused"), "email-validation");
    expect(choice.probe).toMatchObject({ mode: "tools", toolChoice: { required: "refused", named: "refused" } });
    const diff = await generation(persona("unified-diff-text"), "email-validation");
    expect(diff.probe).toMatchObject({ mode: "text", toolCalls: "ignored" });
    expect(diff.report.summary).toContain("unified-diff text");
  }, 300_000);

  it("a cut call is never run: the model is asked for a smaller one, also when finish_reason says the call was complete", async () => {
    for (const name of ["cut-at-length", "cut-finish-lies"]) {
      const g = await generation(persona(name), "email-validation");
      const second = JSON.stringify(g.chats[1]?.body?.messages ?? []);
      expect(second, name).toContain("was cut off before its arguments closed");
      // The cut call went back with "{}" arguments (a server may refuse a conversation holding broken JSON).
      expect(second).toContain('"arguments":"{}"');
      expect(g.report.summary).toContain("refused: cut call");
      expect(g.transcript.filter((e) => e.kind === "tool" && e.name === "write")).toHaveLength(1);
    }
  }, 240_000);

  it("a stuck model is stopped after 4 identical calls; reasoning is kept in the transcript; Retry-After is honoured", async () => {
    const stuck = await generation(persona("repeats-one-call"), "email-validation");
    expect(stuck.chats).toHaveLength(4);
    expect(stuck.report.summary).toContain("the same call (read_file) with the same result 4 times in a row");
    const thinking = await generation(persona("reasoning-then-calls"), "email-validation");
    const replies = thinking.transcript.flatMap((e) => (e.kind === "llm" && e.response !== null ? [e.response] : []));
    expect(replies.length).toBeGreaterThan(0);
    for (const r of replies) expect(r.reasoning).toMatch(/^Let me think/);
    const limited = await generation(persona("rate-limited"), "email-validation");
    const calls = limited.transcript.filter((e) => e.kind === "llm");
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c.kind === "llm" && c.attempts).toBe(2);
    for (const c of calls) expect(c.kind === "llm" && c.latencyMs).toBeGreaterThanOrEqual(950);
  }, 300_000);

  it("on a task the seed does not know, each text format and call format adds a solver and its case", async () => {
    for (const name of ["native-tools", "search-replace-text", "whole-file-text", "unified-diff-text", "qwen3-xml-in-text", "mistral-tool-calls"]) {
      const g = await generation(persona(name), "template");
      expect(g.report.changedFiles.sort(), name).toEqual(["task/index.ts", "task/template.ts"]);
      for (const [path, text] of intended(g)) expect(g.tree.get(path), `${name}: ${path}`).toBe(text.endsWith("\n") ? text : `${text}\n`);
    }
  }, 400_000);
});
