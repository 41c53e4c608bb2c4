/**
 * The model probe (harness/src/llm/model-probe.ts) against the model zoo's personas, through
 * the real openai client: each documented habit is told apart, and the mode the seed will use
 * follows from it; `evolve doctor --model` prints the same, with the reason.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiPort, probeModel, resolveLlmSetup, PROBE_WORST_TOKENS } from "../../harness/src/llm/index.js";
import type { ModelProbe } from "../../harness/src/kernel/index.js";
import { persona, startZooServer } from "../support/model-zoo/index.js";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";

const exec = promisify(execFile);
const BIN = resolve(import.meta.dirname, "../../bin/evolve.js");

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function probeOf(name: string): Promise<ModelProbe> {
  server = await startZooServer(persona(name));
  const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL }, { model: name, retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50 } });
  if (!setup.available) throw new Error(setup.reason);
  return probeModel(createOpenAiPort(setup));
}

describe("model probe", () => {
  it.each<[string, Partial<ModelProbe>]>([
    ["native-tools", { mode: "tools", toolCalls: "native", argumentsJson: true, toolChoice: { required: "ok", named: "ok" }, reasoning: false }],
    ["tools-refused", { mode: "text", toolCalls: "refused", toolChoice: { required: "not_tried", named: "not_tried" } }],
    ["tool-choice-refused", { mode: "tools", toolCalls: "native", toolChoice: { required: "refused", named: "refused" } }],
    ["hermes-in-text", { mode: "tools", toolCalls: "in_text", textFormat: "hermes" }],
    ["qwen3-xml-in-text", { mode: "tools", toolCalls: "in_text", textFormat: "qwen3-xml" }],
    ["llama-python-tag", { mode: "tools", toolCalls: "in_text", textFormat: "llama" }],
    ["mistral-tool-calls", { mode: "tools", toolCalls: "in_text", textFormat: "mistral" }],
    ["args-python-literals", { mode: "tools", toolCalls: "native", argumentsJson: false }],
    ["search-replace-text", { mode: "text", toolCalls: "ignored" }],
    ["chatty-no-edit", { mode: "text", toolCalls: "ignored" }],
    ["reasoning-then-calls", { mode: "tools", toolCalls: "native", reasoning: true }],
    ["reasoning-only", { mode: "tools", toolCalls: "unknown", reasoning: true }],
    ["rate-limited", { mode: "tools", toolCalls: "native", argumentsJson: true }],
  ])("%s", async (name, expected) => {
    const probe = await probeOf(name);
    expect(probe).toMatchObject({ answered: true, skipped: null, ...expected });
    expect(probe.reason).not.toBe("");
    expect(probe.calls).toBe(probe.toolCalls === "refused" ? 2 : 4);
    expect(probe.tokens.prompt + probe.tokens.completion).toBeGreaterThan(0);
    expect(probe.tokens.prompt + probe.tokens.completion).toBeLessThanOrEqual(PROBE_WORST_TOKENS);
    // Every request the persona saw was the probe's.
    expect(server?.chatRequests().every((r) => r.probe)).toBe(true);
  });

  it("says so when the endpoint does not answer, and leaves the seed its default", async () => {
    server = await startScriptedOpenAIServer(() => ({ kind: "error", status: 404, message: "model 'nope' not found" }), { probes: "script" });
    const setup = resolveLlmSetup({ OPENAI_BASE_URL: server.baseURL }, { model: "nope" });
    if (!setup.available) throw new Error(setup.reason);
    const probe = await probeModel(createOpenAiPort(setup));
    expect(probe).toMatchObject({ answered: false, mode: "tools", calls: 1 });
    expect(probe.reason).toMatch(/did not answer \(LLM call failed after 1 attempt: HTTP 404/);
    expect(probe.errors).toHaveLength(1);
  });

  it("evolve doctor --model prints what it found and which mode the seed will use, and why", async () => {
    server = await startZooServer(persona("hermes-in-text"));
    const env: Record<string, string | undefined> = { ...process.env, OPENAI_BASE_URL: server.baseURL, DOCKER_HOST: "unix:///nonexistent/docker.sock" };
    delete env["OPENAI_API_KEY"];
    const out = await exec(process.execPath, [BIN, "doctor", "--model", "qwen2.5-coder"], { env, timeout: 60_000 }).catch((e: { stdout: string; code: number }) => e);
    expect(out.stdout).toContain("model qwen2.5-coder");
    expect(out.stdout).toContain("tool calls: written in the text (hermes)");
    expect(out.stdout).toMatch(/the seed will use: its tool loop, because tool calls come written in the text \(hermes\)/);
    expect(out.stdout).toMatch(/tool_choice: "required" taken, a named tool taken/);
    expect(server.chatRequests().every((r) => r.probe && r.body?.model === "qwen2.5-coder")).toBe(true);
  });
});
