/**
 * The seed meta agent's SEARCH/REPLACE strategy on the in-memory engine, the fallback for
 * endpoints without tool calling: reached automatically when the endpoint answers 400 to
 * tools (real broker, scripted OpenAI-compatible server), or chosen by search.llmMode.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedLlmClient } from "../support/scripted-llm-client.js";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer, type ScriptedReply } from "../support/scripted-openai-server.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import { compileTree, SEED_DIR } from "./agent-tree.js";
import { readOwnTree } from "../../harness/src/archive/index.js";
import { brokerOn, improveWithLlm, seedBuild, seedVariant, type AgentBuild } from "./llm-improve.js";

let env: TestEngine;
let work: string;
let seed: AgentBuild;
let validator: Validator;
let server: ScriptedOpenAIServer | null = null;

beforeAll(async () => {
  env = await memoryEngine();
  work = await mkdtemp(join(tmpdir(), "evolve-seed-llm-"));
  validator = createValidator();
  seed = await seedBuild(validator, work);
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

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
  it("falls back to SEARCH/REPLACE when the endpoint answers 400 to tools, applies the edits and recovers from a block that does not match", async () => {
    const tokensLine = await seedLine("meta/search-params.ts", /^\s*maxTokens: \d+,/);
    const iterationsLine = await seedLine("task/circle-packing.ts", /^\s*iterations: \d+,/);
    const newTokens = tokensLine.replace(/maxTokens: \d+/, "maxTokens: 3000");
    const newIterations = iterationsLine.replace(/iterations: \d+/, "iterations: 800");
    const staleIterations = iterationsLine.replace(/iterations: \d+/, "iterations: 987654");

    const text: ScriptedReply[] = [
      {
        content: [
          "SUMMARY: more optimisation iterations, shorter answers",
          block("meta/search-params.ts", tokensLine, newTokens),
          "",
          block("task/circle-packing.ts", staleIterations, newIterations),
        ].join("\n"),
      },
      { content: block("task/circle-packing.ts", iterationsLine, newIterations) },
    ];
    // An endpoint without tool calling (vLLM without a tool parser answers just this).
    server = await startScriptedOpenAIServer((req) =>
      req.body?.tools !== undefined
        ? { kind: "error", status: 400, message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' }
        : (text.shift() ?? { kind: "error", status: 400, message: "script exhausted" }),
    );
    const broker = brokerOn(server);
    const { report, tree, takeTo, stderr } = await improveWithLlm({ env, work, agent: seed, onLlm: broker.onLlm });
    broker.close();

    const [toolsTry, ...requests] = server.chatRequests();
    expect(toolsTry?.body?.tools?.map((t) => t.function["name"])).toContain("replace_in_file");
    expect(broker.transcript()[0]).toMatchObject({ outcome: "failed", code: "tools_unsupported" });
    expect(stderr).toContain("the endpoint refused tools");
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

  it("runs SEARCH/REPLACE when search.llmMode says text, says why no edit applied and falls back to the offline strategy, so the generation is not empty", async () => {
    const seedTree = await readOwnTree(SEED_DIR);
    const textMode = await seedVariant(validator, work, { "meta/search-params.ts": (t) => t.replace('llmMode: "tools" as', 'llmMode: "text" as') });
    const llm = scriptedLlmClient([
      "I would rather describe the change in prose.",
      block("task/nowhere.ts", "const a = 1;", "const a = 2;"),
      block("task/circle-packing.ts", "this text is not in the file", "x"),
    ]);
    const { report, tree, takeTo } = await improveWithLlm({ env, work, agent: textMode, onLlm: llm.onLlm });

    expect(llm.requests).toHaveLength(3);
    expect(llm.requests.every((r) => r.tools === undefined)).toBe(true);
    expect(llm.requests[1]?.messages.at(-1)?.content).toContain("no SEARCH/REPLACE block");
    expect(llm.requests[2]?.messages.at(-1)?.content).toContain("Block 1 (task/nowhere.ts) failed: file task/nowhere.ts does not exist");
    expect(report.summary).toMatch(/^offline: .*\(llm gave no applicable edit: unresolved after 2 retries: block 1 \(task\/circle-packing\.ts\) SEARCH text not found/);
    expect(report.changedFiles.length).toBeGreaterThan(0);
    expect([...tree].some(([path, text]) => path !== "meta/search-params.ts" && seedTree.get(path) !== text)).toBe(true);
    expect(await compileTree(validator, takeTo, `${takeTo}-build`, textMode.dir)).toBeNull();
  });
});
