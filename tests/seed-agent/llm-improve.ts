/**
 * Running the seed meta agent's LLM strategies in real containers: the seed (or a variant of
 * it with some files rewritten, as a later generation would) compiled through the harness's
 * gates, a broker over the shared scripted OpenAI-compatible server, and `runImprove`.
 */
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { ImproveReport, ImproveRequest } from "@evolve/contract";
import { BudgetLedger, createOpenAiPort, LlmBroker, resolveLlmSetup, UNLIMITED } from "../../harness/src/llm/index.js";
import type { Validator } from "../../harness/src/validation/index.js";
import { runImprove } from "../../sandbox/src/index.js";
import { type ToolMessage } from "../../harness/src/kernel/index.js";
import { type WireJson, type WireLlmAnswer } from "../../harness/src/kernel/index.js";
import type { ScriptedOpenAIServer } from "../support/scripted-openai-server.js";
import type { TestEngine } from "../support/test-engine.js";
import { compileTree, SEED_DIR } from "./agent-tree.js";
import { readOwnTree } from "../../harness/src/archive/index.js";
import { improveRequest } from "./improve-request.js";

export interface AgentBuild {
  /** The TypeScript tree (the workspace the meta agent edits). */
  dir: string;
  /** Its emitted JS (what runs). */
  build: string;
}

/** The seed with some files rewritten, compiled; fails the test when the variant does not pass the gates. */
export async function seedVariant(validator: Validator, work: string, edits: Record<string, (text: string) => string>): Promise<AgentBuild> {
  const dir = await mkdtemp(join(work, "variant-"));
  await cp(SEED_DIR, dir, { recursive: true });
  for (const [path, edit] of Object.entries(edits)) {
    const file = join(dir, path);
    const before = await readFile(file, "utf8").catch(() => "");
    const after = edit(before);
    expect(after, `the edit of ${path} changed nothing`).not.toBe(before);
    await writeFile(file, after);
  }
  const build = `${dir}-build`;
  expect(await compileTree(validator, dir, build, null)).toBeNull();
  return { dir, build };
}

/** A broker of one generation over the scripted server, with the real openai client. */
export function brokerOn(server: ScriptedOpenAIServer, generationTokens: number | null = null): LlmBroker {
  const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL }, { model: "scripted-model", retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
  if (!setup.available) throw new Error(setup.reason);
  return new LlmBroker({
    port: createOpenAiPort(setup),
    model: setup.model,
    price: null,
    generationLimits: generationTokens === null ? UNLIMITED : { tokens: generationTokens, usd: null },
    runLedger: new BudgetLedger("run", UNLIMITED),
  });
}

export interface ImproveRun {
  env: TestEngine;
  work: string;
  agent: AgentBuild;
  onLlm: (request: unknown) => Promise<WireLlmAnswer>;
  /** The broker's record of the workspace file tools. */
  onTool?: (event: ToolMessage) => void;
  task?: string;
  /** Changes to the request the harness would send (budgets, feedback). */
  request?: (request: ImproveRequest) => ImproveRequest;
}

/** Runs `improve` of the agent on its own tree with an LLM; returns the report, the tree it left and the container's stderr. */
export async function improveWithLlm(run: ImproveRun) {
  const task = run.task ?? "circle-packing";
  const takeTo = await mkdtemp(join(run.work, "take-"));
  const base = improveRequest(task, 5);
  const request = run.request === undefined ? base : run.request(base);
  const result = await runImprove({
    engine: run.env.engine,
    image: run.env.image,
    labels: { session: run.env.session, phase: "improve" },
    buildDir: run.agent.build,
    agentDir: run.agent.dir,
    takeTo,
    timeoutMs: 120_000,
    init: { task, seed: 5, llmAvailable: true, deadline: request.budget.deadline, request: request as unknown as WireJson },
    onLlm: run.onLlm,
    ...(run.onTool === undefined ? {} : { onTool: run.onTool }),
  });
  expect(result.end, result.outcome.stderr).toBeNull();
  return { report: result.report as ImproveReport, tree: await readOwnTree(takeTo), takeTo, stderr: result.outcome.stderr };
}

/** The seed itself as an agent build (compiled once per test file). */
export async function seedBuild(validator: Validator, work: string): Promise<AgentBuild> {
  const build = join(work, "seed-build");
  expect(await compileTree(validator, SEED_DIR, build, null)).toBeNull();
  return { dir: SEED_DIR, build };
}
