/**
 * The seed meta agent's tool loop on the in-memory engine, through the real broker and openai
 * client against the shared scripted server: realistic tool-calling conversations, and what
 * the loop does when the model misbehaves (bad arguments, unknown tools, no finish, replies
 * cut at the token limit, a spent budget) or when its drafts are evaluated.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import { startScriptedOpenAIServer, type RecordedRequest, type ScriptedReply, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { compileTree, SEED_DIR } from "./agent-tree.js";
import { brokerOn, improveWithLlm, seedBuild, seedVariant, type AgentBuild } from "./llm-improve.js";

let env: TestEngine;
let work: string;
let validator: Validator;
let seed: AgentBuild;
let server: ScriptedOpenAIServer | null = null;
let solver: string;

beforeAll(async () => {
  env = await memoryEngine();
  work = await mkdtemp(join(tmpdir(), "evolve-seed-tools-"));
  validator = createValidator();
  seed = await seedBuild(validator, work);
  solver = await readFile(join(SEED_DIR, "task/circle-packing.ts"), "utf8");
});
afterEach(async () => {
  await server?.close();
  server = null;
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A knob's line of the seed's circle-packing solver (found by pattern, so the test follows the seed). */
function line(pattern: RegExp): string {
  const found = solver.split("\n").find((l) => pattern.test(l));
  if (found === undefined) throw new Error(`no line matching ${pattern}`);
  return found;
}

const call = (name: string, args: unknown) => ({ name, arguments: typeof args === "string" ? args : JSON.stringify(args) });

/** The tool results the agent sent back in a request, by tool call id. */
function toolResults(request: RecordedRequest | undefined): Map<string, string> {
  const messages = (request?.body?.messages ?? []) as { role: string; content: unknown; tool_call_id?: string }[];
  return new Map(messages.filter((m) => m.role === "tool").map((m) => [String(m.tool_call_id), String(m.content)]));
}

async function serve(script: ScriptedReply[]): Promise<ScriptedOpenAIServer> {
  server = await startScriptedOpenAIServer(script);
  return server;
}

describe("seed meta agent, tool loop", () => {
  it("works through several tool calls a turn with text beside them; bad arguments and unknown tools come back as errors; it finishes", async () => {
    const iterations = line(/^\s*iterations: \d+,/);
    const server = await serve([
      {
        content: "I'll look at the tree and the solver's parameters first.",
        toolCalls: [call("list_files", {}), call("read_file", { path: "task/circle-packing.ts", startLine: 1, endLine: 20 })],
      },
      {
        content: "More relaxation iterations should let the circles settle.",
        toolCalls: [
          call("run_tests", {}),
          call("replace_in_file", '{"path": "task/circle-packing.ts", "search": "iterations: 400,'),
          call("replace_in_file", { path: "task/circle-packing.ts", search: iterations, replace: iterations.replace(/\d+/, "800") }),
        ],
      },
      { content: null, toolCalls: [call("finish", { summary: "more relaxation iterations so circles settle denser" })] },
    ]);
    const broker = brokerOn(server);
    const { report, tree, takeTo } = await improveWithLlm({ env, work, agent: seed, onLlm: broker.onLlm, onTool: broker.onTool });

    const requests = server.chatRequests();
    expect(requests).toHaveLength(3);
    const tools = requests[0]?.body?.tools?.map((t) => t.function["name"]);
    expect(tools).toEqual(["list_files", "read_file", "replace_in_file", "write_file", "finish"]);
    expect(JSON.stringify(requests[0]?.body?.messages)).toContain("Drafts cannot be evaluated");
    const first = toolResults(requests[1]);
    expect(first.get("call_0_0")).toContain("task/circle-packing.ts\n");
    expect(first.get("call_0_1")).toMatch(/^task\/circle-packing\.ts, lines 1-20 of \d+:\n1\| \/\*\*/);
    expect(first.get("call_0_1")).toMatch(/\n\d+\|\s+iterations: 400,/);
    const second = toolResults(requests[2]);
    expect(second.get("call_1_0")).toMatch(/^error: unknown tool "run_tests"; the tools are list_files, read_file, replace_in_file, write_file, finish$/);
    // Arguments that end before their JSON closes are a cut call: never run, and the model is told so.
    expect(second.get("call_1_1")).toMatch(/^error: the call to replace_in_file was cut off before its arguments closed .*Send a smaller call/);
    expect(second.get("call_1_2")).toBe("replaced task/circle-packing.ts");
    // The assistant turn went back with its text and its three calls.
    const assistant = (requests[2]?.body?.messages ?? []).find((m) => m.role === "assistant" && m["tool_calls"] !== undefined && String(m.content).startsWith("More"));
    expect(assistant?.["tool_calls"]).toHaveLength(3);

    expect(tree.get("task/circle-packing.ts")).toContain(iterations.replace(/\d+/, "800"));
    expect(report).toEqual({
      summary: "llm-tools: more relaxation iterations so circles settle denser [edited task/circle-packing.ts; format: native tool calls ×3; refused: cut call; 3 turns]",
      changedFiles: ["task/circle-packing.ts"],
    });
    expect(await compileTree(validator, takeTo, `${takeTo}-build`, SEED_DIR)).toBeNull();
    // The transcript has the model's calls and the file tools they led to.
    const transcript = broker.transcript();
    expect(transcript.filter((e) => e.kind === "llm").map((e) => e.kind === "llm" && e.response?.toolCalls.map((c) => c.name))).toEqual([
      ["list_files", "read_file"],
      ["run_tests", "replace_in_file", "replace_in_file"],
      ["finish"],
    ]);
    expect(transcript.some((e) => e.kind === "tool" && e.name === "write" && e.path === "task/circle-packing.ts")).toBe(true);
  });

  it("stops at its turn cap when the model never finishes, keeps the last draft, and copes with replies cut at the token limit", async () => {
    const capped = await seedVariant(validator, work, { "meta/search-params.ts": (t) => t.replace(/toolSteps: \d+/, "toolSteps: 4") });
    const iterations = line(/^\s*iterations: \d+,/);
    const step = line(/^\s*stepSize: [\d.]+,/);
    const server = await serve([
      { content: "Plan: first I will rewrite the whole solver so that it uses a hexagonal start and then", finishReason: "length" },
      { content: null, toolCalls: [call("write_file", '{"path":"task/circle-packing.ts","content":"/**\\n * Circle packing: start from')], finishReason: "length" },
      { content: "", toolCalls: [call("replace_in_file", { path: "task/circle-packing.ts", search: iterations, replace: iterations.replace(/\d+/, "600") })] },
      { content: "", toolCalls: [call("replace_in_file", { path: "task/circle-packing.ts", search: step, replace: step.replace(/[\d.]+,/, "0.003,") })] },
    ]);
    const broker = brokerOn(server);
    const { report, tree } = await improveWithLlm({ env, work, agent: capped, onLlm: broker.onLlm });

    const requests = server.chatRequests();
    expect(requests).toHaveLength(4);
    expect(requests[1]?.body?.messages?.at(-1)).toMatchObject({ role: "user", content: expect.stringContaining("cut at the token limit") });
    expect(toolResults(requests[2]).get("call_1_0")).toMatch(/^error: the call to write_file was cut off before its arguments closed/);
    const text = tree.get("task/circle-packing.ts");
    expect(text).toContain(iterations.replace(/\d+/, "600"));
    expect(text).toContain(step.replace(/[\d.]+,/, "0.003,"));
    expect(report.summary).toBe("llm-tools: unfinished [edited task/circle-packing.ts; no finish within 4 turns; format: prose (no call, no edit), native tool calls ×3; refused: cut call; 4 turns]");
  });

  it("stops when the generation's token budget is spent and keeps what it had", async () => {
    const iterations = line(/^\s*iterations: \d+,/);
    const server = await serve([
      { content: "", toolCalls: [call("replace_in_file", { path: "task/circle-packing.ts", search: iterations, replace: iterations.replace(/\d+/, "700") })], promptTokens: 7_000, completionTokens: 300 },
      { content: "never sent" },
    ]);
    const broker = brokerOn(server, 9_000);
    const { report, tree } = await improveWithLlm({ env, work, agent: seed, onLlm: broker.onLlm });
    expect(server.chatRequests()).toHaveLength(1);
    expect(tree.get("task/circle-packing.ts")).toContain(iterations.replace(/\d+/, "700"));
    expect(report.summary).toMatch(/^llm-tools: unfinished \[edited task\/circle-packing\.ts; llm budget_exhausted: LLM budget exhausted: the generation budget has 1700 tokens left/);
  });

  it("keeps the best evaluated draft, not the last, and reads invalid drafts and refusals from evaluate", async () => {
    // A later generation could wrap the loop like this; here the wrapper's evaluate stands in
    // for the harness's: it scores a draft by its iterations (best at 900), as a grader would
    // score the packing they lead to, and refuses after three calls.
    const wrapper = `import type { EvaluateResult, ImproveFn } from "@evolve/contract";
import { toolImprove } from "./tool-loop.js";

export const improve: ImproveFn = async (request, ctx) => {
  let left = 3;
  const evaluate = async (): Promise<EvaluateResult> => {
    if (left === 0) return { outcome: "refused", reason: "the 3 evaluations of this generation are spent", remaining: 0 };
    left--;
    const text = await ctx.files.read("task/circle-packing.ts");
    if (text.includes("BROKEN")) return { outcome: "invalid", stage: "compile", code: "type_error", message: "task/circle-packing.ts(8,15): error TS2304: Cannot find name 'BROKEN'.", remaining: left };
    const iterations = Number(/iterations: (\\d+)/.exec(text)?.[1] ?? 0);
    const score = (1000 - Math.abs(iterations - 900)) / 1000;
    return { outcome: "evaluated", score, instances: [{ id: "n26", score, feedback: "iterations " + iterations }], stderr: "", remaining: left };
  };
  const outcome = await toolImprove({ ...request, budget: { ...request.budget, evaluations: 3 } }, { ...ctx, evaluate });
  return outcome.ok ? outcome.report : { summary: "no edit: " + outcome.note, changedFiles: [] };
};
`;
    const agent = await seedVariant(validator, work, { "meta/index.ts": () => wrapper });
    const iterations = line(/^\s*iterations: \d+,/);
    const to = (n: string) => iterations.replace(/\d+/, n);
    const replace = (from: string, next: string) => call("replace_in_file", { path: "task/circle-packing.ts", search: from, replace: next });
    const server = await serve([
      { content: "Try 800 iterations.", toolCalls: [replace(iterations, to("800")), call("evaluate", {})] },
      { content: "Better. Try more.", toolCalls: [replace(to("800"), to("1500")), call("evaluate", { instances: "visible" })] },
      { content: "", toolCalls: [replace(to("1500"), to("BROKEN")), call("evaluate", { instances: ["n26"] })] },
      { content: "", toolCalls: [call("evaluate", {}), call("evaluate", { instances: 7 })] },
      { content: "", toolCalls: [call("finish", { summary: "tuned the iteration count by evaluation" })] },
    ]);
    const broker = brokerOn(server);
    const { report, tree } = await improveWithLlm({ env, work, agent, onLlm: broker.onLlm });

    const requests = server.chatRequests();
    expect(requests).toHaveLength(5);
    expect(requests[0]?.body?.tools?.map((t) => t.function["name"])).toContain("evaluate");
    expect(toolResults(requests[1]).get("call_0_1")).toBe("score 0.9 on 1 instance(s) — the best draft so far, kept (2 evaluation(s) left)\n- n26: 0.9 — iterations 800");
    expect(toolResults(requests[2]).get("call_1_1")).toMatch(/^score 0\.4 on 1 instance\(s\) — not better than the best so far \(0\.9\) \(1 evaluation\(s\) left\)/);
    expect(toolResults(requests[3]).get("call_2_1")).toMatch(/^the draft fails the compile check \(type_error\): .*Cannot find name 'BROKEN'/);
    const fourth = toolResults(requests[4]);
    expect(fourth.get("call_3_0")).toBe("evaluation refused: the 3 evaluations of this generation are spent (0 evaluation(s) left)");
    expect(fourth.get("call_3_1")).toMatch(/^error: instances must be "stage1", "visible" or a list of instance ids$/);

    expect(tree.get("task/circle-packing.ts")).toContain(to("800"));
    expect(report.summary).toBe(
      "llm-tools: tuned the iteration count by evaluation [edited task/circle-packing.ts; best evaluated draft 0.9 (evaluation 1 of 2), restored; format: native tool calls ×5; 5 turns]",
    );
  });
});
