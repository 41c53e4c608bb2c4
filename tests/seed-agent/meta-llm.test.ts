/**
 * The seed meta agent's LLM strategy in a real container: scripted replies reach it through
 * the real broker (scripted OpenAI-compatible server) or the scripted protocol-level client.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImproveReport } from "@evolve/contract";
import { BudgetLedger, createOpenAiPort, LlmBroker, resolveLlmSetup, UNLIMITED } from "../../harness/src/llm/index.js";
import { runImprove, type WireJson, type WireLlmAnswer } from "../../sandbox/src/index.js";
import { scriptedLlmClient } from "../support/scripted-llm-client.js";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import { compileTree, readTree, SEED_DIR } from "./agent-tree.js";
import { improveRequest } from "./improve-request.js";

let env: TestEngine;
let work: string;
let buildDir: string;
let validator: Validator;
let server: ScriptedOpenAIServer | null = null;

beforeAll(async () => {
  env = await testEngine();
  work = await mkdtemp(join(tmpdir(), "evolve-seed-llm-"));
  buildDir = join(work, "build");
  validator = createValidator();
  expect(await compileTree(validator, SEED_DIR, buildDir, null)).toBeNull();
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

async function improveWithLlm(onLlm: (request: WireJson) => Promise<WireLlmAnswer>) {
  const takeTo = await mkdtemp(join(work, "take-"));
  const result = await runImprove({
    engine: env.engine,
    image: env.image,
    labels: { session: env.session, phase: "improve" },
    buildDir,
    agentDir: SEED_DIR,
    takeTo,
    timeoutMs: 120_000,
    init: { task: "circle-packing", seed: 5, llmAvailable: true, deadline: Date.now() + 100_000, request: improveRequest("circle-packing", 5) },
    onLlm,
  });
  expect(result.error, result.outcome.stderr).toBeNull();
  return { report: result.report as ImproveReport, tree: await readTree(takeTo), takeTo };
}

/** A line of a seed file, found by a pattern (so the test follows the seed's current values). */
async function seedLine(path: string, pattern: RegExp): Promise<string> {
  const line = (await readFile(join(SEED_DIR, path), "utf8")).split("\n").find((l) => pattern.test(l));
  if (line === undefined) throw new Error(`no line matching ${pattern} in ${path}`);
  return line;
}

function block(path: string, search: string, replace: string): string {
  return `${path}\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
}

describe("seed meta agent, LLM strategy", () => {
  it("applies SEARCH/REPLACE edits and recovers from a block that does not match", async () => {
    const tokensLine = await seedLine("meta/search-params.ts", /^\s*maxTokens: \d+,/);
    const iterationsLine = await seedLine("task/circle-packing.ts", /^\s*iterations: \d+,/);
    const newTokens = tokensLine.replace(/maxTokens: \d+/, "maxTokens: 3000");
    const newIterations = iterationsLine.replace(/iterations: \d+/, "iterations: 800");
    const staleIterations = iterationsLine.replace(/iterations: \d+/, "iterations: 987654");

    server = await startScriptedOpenAIServer([
      {
        content: [
          "SUMMARY: more optimisation iterations, shorter answers",
          block("meta/search-params.ts", tokensLine, newTokens),
          "",
          block("task/circle-packing.ts", staleIterations, newIterations),
        ].join("\n"),
      },
      { content: block("task/circle-packing.ts", iterationsLine, newIterations) },
    ]);
    const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL }, { model: "scripted-model" });
    if (!setup.available) throw new Error(setup.reason);
    const broker = new LlmBroker({
      port: createOpenAiPort(setup),
      model: setup.model,
      price: null,
      generationLimits: UNLIMITED,
      runLedger: new BudgetLedger("run", UNLIMITED),
    });
    const { report, tree, takeTo } = await improveWithLlm(broker.onLlm);
    broker.close();

    const requests = server.chatRequests();
    expect(requests).toHaveLength(2);
    const firstPrompt = JSON.stringify(requests[0]?.body?.messages);
    expect(firstPrompt).toContain("circles 3 and 7 nearly touch");
    expect(firstPrompt).toContain(JSON.stringify(iterationsLine).slice(1, -1));
    const retry = requests[1]?.body?.messages?.at(-1);
    expect(retry?.role).toBe("user");
    const retryText = String(retry?.content);
    expect(retryText).toContain("Block 2 (task/circle-packing.ts) failed: SEARCH text not found");
    expect(retryText).toContain(iterationsLine.trim());
    expect(retryText).toContain("Applied blocks: 1;");

    expect(tree.get("meta/search-params.ts")).toContain(newTokens);
    expect(tree.get("task/circle-packing.ts")).toContain(newIterations);
    expect([...report.changedFiles].sort()).toEqual(["meta/search-params.ts", "task/circle-packing.ts"]);
    expect(report.summary).toMatch(/^llm: more optimisation iterations, shorter answers \[edited /);
    expect(report.summary).not.toContain("unresolved");
    expect(await compileTree(validator, takeTo, `${takeTo}-build`, SEED_DIR)).toBeNull();
  });

  it("says why no edit applied and falls back to the offline strategy, so the generation is not empty", async () => {
    const seedTree = await readTree(SEED_DIR);
    const llm = scriptedLlmClient([
      "I would rather describe the change in prose.",
      block("task/nowhere.ts", "const a = 1;", "const a = 2;"),
      block("task/circle-packing.ts", "this text is not in the file", "x"),
    ]);
    const { report, tree, takeTo } = await improveWithLlm(llm.onLlm);

    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[1]?.messages.at(-1)?.content).toContain("no SEARCH/REPLACE block");
    expect(llm.requests[2]?.messages.at(-1)?.content).toContain("Block 1 (task/nowhere.ts) failed: file task/nowhere.ts does not exist");
    expect(report.summary).toMatch(/^offline: .*\(llm gave no applicable edit: unresolved after 2 retries: block 1 \(task\/circle-packing\.ts\) SEARCH text not found/);
    expect(report.changedFiles.length).toBeGreaterThan(0);
    expect([...tree].some(([path, text]) => seedTree.get(path) !== text)).toBe(true);
    expect(await compileTree(validator, takeTo, `${takeTo}-build`, SEED_DIR)).toBeNull();
  });
});
