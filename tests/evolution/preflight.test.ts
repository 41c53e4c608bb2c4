/**
 * A task or agent that does not meet the contract is refused before any container starts,
 * with every reason. The engine passed in (the in-memory one) sits behind a counter of calls.
 */
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxEngine } from "../../sandbox/src/index.js";
import { EvolveError } from "../../harness/src/kernel/index.js";
import { BUILTIN_TASKS_DIR, startRun } from "../../harness/src/evolution/index.js";
import { memorySink } from "./run-helpers.js";
import { memoryEngine } from "../support/memory-engine.js";

let work: string;
let engine: SandboxEngine;
const calls: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "evolve-preflight-test-"));
  const real = (await memoryEngine()).engine;
  engine = new Proxy(real, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function refusal(options: Record<string, unknown>): Promise<EvolveError> {
  const out = join(work, "out");
  calls.length = 0;
  const error = await startRun({ out, generations: 1, ...options }, { sink: memorySink(), signal: new AbortController().signal, env: {}, engine }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EvolveError);
  expect(calls).toEqual([]);
  expect(await readdir(out).catch(() => [])).toEqual([]);
  return error as EvolveError;
}

describe("evolve run refuses a bad task or agent before any container", () => {
  it("lists every problem of the task and of the agent at once", async () => {
    const task = join(work, "bad-task");
    await mkdir(task, { recursive: true });
    await writeFile(join(task, "task.json"), JSON.stringify({ name: "bad-task", description: "", metric: "m", direction: "up" }));
    const agent = join(work, "no-meta");
    await mkdir(join(agent, "task"), { recursive: true });
    await writeFile(join(agent, "task", "index.ts"), "export const solve = 1;\n");
    const error = await refusal({ task, agent });
    expect(error.code).toBe("invalid_agent");
    expect(error.message).toContain("description");
    expect(error.message).toContain("direction");
    expect(error.message).toContain("grader.ts: missing");
    expect(error.message).toContain("visible.json: cannot read");
    expect(error.message).toContain("missing meta/index.ts");
  });

  it("refuses an agent whose code does not compile or does not meet the signatures, naming file and line", async () => {
    const agent = join(work, "type-error");
    await cp(join(import.meta.dirname, "../e2e/fixtures/llm-agent"), agent, { recursive: true });
    await writeFile(join(agent, "task", "index.ts"), 'export const solve = async (input: unknown): Promise<number> => "not a number";\n');
    const error = await refusal({ agent, task: join(BUILTIN_TASKS_DIR, "email-validation") });
    expect(error.code).toBe("invalid_agent");
    expect(error.message).toMatch(/compile gate, type_error: .*task\/index\.ts/);
  });

  it("refuses a missing agent folder and an unknown task name", async () => {
    const error = await refusal({ agent: join(work, "nowhere"), task: "no-such-task" });
    expect(error.message).toContain("no such folder");
    expect(error.message).toContain("no-such-task");
  });
});
