/**
 * ctx.evaluate in a real run (`startRun`, the in-memory engine, the security suite's sec-sum task:
 * two visible instances, one held-out). The test agent drafts a right, a wrong and a broken
 * task agent, evaluates each, and calls once past the count of 3; the archive must show what
 * each call answered, what it cost, and the count, and the agent must have received the same.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generationPaths, readRunRecord, type GenerationRecord } from "../../harness/src/archive/index.js";
import { startRun, type RunSummary } from "../../harness/src/evolution/index.js";
import { parseTranscript, type EvaluateTranscriptEntry } from "../../harness/src/llm/index.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { memorySink, readConsistentRun } from "./run-helpers.js";

const AGENT = new URL("./fixtures/self-test-agent/", import.meta.url).pathname;
const TASK = new URL("../security/fixtures/sec-sum/", import.meta.url).pathname;
const RUN_ID = "self-test-e2e";

let env: TestEngine;
let out: string;
let summary: RunSummary;
let child: GenerationRecord;
let calls: EvaluateTranscriptEntry[];

beforeAll(async () => {
  env = await memoryEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-self-test-"));
  summary = await startRun(
    { task: TASK, agent: AGENT, generations: 1, workers: 1, seed: 3, out, runId: RUN_ID, evaluations: 3, improveTimeoutMs: 180_000 },
    { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session },
  );
  const { generations, problems } = await readConsistentRun(join(out, RUN_ID));
  expect(problems).toEqual([]);
  child = generations.find((g) => g.id === "g0001") as GenerationRecord;
  const transcript = parseTranscript(await readFile(generationPaths(join(out, RUN_ID), "g0001").transcript, "utf8"));
  expect(transcript.problems).toEqual([]);
  calls = transcript.entries.filter((e): e is EvaluateTranscriptEntry => e.kind === "evaluate");
}, 240_000);
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("ctx.evaluate", () => {
  it("answers a right draft with its visible scores, a wrong one with zeros, a broken one as invalid, and refuses past the count", () => {
    expect(summary.end).toBe("finished");
    expect(child.status.kind).toBe("valid");
    // What the agent received, as it summarised it.
    expect(child.summary).toBe("evaluated:2:1:after-1=1,after-2=1 | evaluated:1:0:after-1=0 | invalid:0:compile:type_error | refused:0");
    expect(calls.map((c) => c.result.outcome)).toEqual(["evaluated", "evaluated", "invalid", "refused"]);
    const [right, wrong, broken, past] = calls as [EvaluateTranscriptEntry, EvaluateTranscriptEntry, EvaluateTranscriptEntry, EvaluateTranscriptEntry];
    expect(right.request).toBe("visible");
    expect(right.result).toMatchObject({ score: 1, instances: [{ id: "after-1", score: 1, feedback: "right sum" }, { id: "after-2", score: 1, feedback: "right sum" }] });
    expect(wrong.request).toBe("stage1");
    expect(wrong.result).toMatchObject({ score: 0, instances: [{ id: "after-1", score: 0, feedback: "wrong sum" }] });
    expect(broken.request).toBe('1 ids: "after-2"');
    expect(broken.result).toMatchObject({ stage: "compile", code: "type_error" });
    const message = (broken.result as { message?: string }).message ?? "";
    expect(message).toMatch(/task\/index\.ts:\d+/);
    expect(message).not.toContain(out);
    expect(message).not.toContain(tmpdir());
    expect(past.result).toMatchObject({ outcome: "refused", remaining: 0 });
    expect(String((past.result as { reason?: string }).reason)).toMatch(/no evaluations left: this generation allows 3/);
  });

  it("counts the calls, their containers and their time, and never runs the held-out split", () => {
    const [right, wrong, broken, past] = calls as [EvaluateTranscriptEntry, EvaluateTranscriptEntry, EvaluateTranscriptEntry, EvaluateTranscriptEntry];
    // The whole visible split runs as a race runs it, in one session, the import check in it
    // (it loads the whole agent first); stage 1 alone: one container too.
    expect(right.containers).toBe(1);
    expect(wrong.containers).toBe(1);
    // A draft that does not compile never reaches a container.
    expect(broken.containers).toBe(0);
    expect(past.containers).toBe(0);
    for (const c of [right, wrong]) {
      expect(c.snapshotHash).toMatch(/^[0-9a-f]{64}$/);
      expect(c.timings.extract).toBeGreaterThan(0);
      expect(c.timings.checks).toBeGreaterThan(0);
      expect(c.timings.evaluate).toBeGreaterThan(0);
      expect(c.durationMs).toBeGreaterThanOrEqual((c.timings.checks ?? 0) + (c.timings.evaluate ?? 0));
    }
    expect(right.snapshotHash).not.toBe(wrong.snapshotHash);
    expect(child.evaluateCalls).toEqual({ calls: 4, counted: 3, containers: 2, durationMs: expect.any(Number) });
    expect(child.evaluateCalls?.durationMs).toBeGreaterThanOrEqual(calls.reduce((s, c) => s + c.durationMs, 0) - 1);
    expect(JSON.stringify(calls)).not.toContain("heldout-sec-1");
  });

  // The meta agent's deadline (the improve timeout less 15 s) leaves the drafts the task's whole
  // evaluation limit (120 s): a draft cut short by the deadline would not be read off.
  it("reads the child's race off its first draft, whose tree it submitted: the same scores, no visible container of its own", () => {
    expect(child.snapshotHash).toBe(calls[0]?.snapshotHash);
    expect(child.evaluation?.visibleFromDraft).toBe(1);
    expect(child.evaluation?.race?.stop).toBe("complete");
    expect(child.scores.visible).toBe(1);
    expect(child.evaluation?.stages.flatMap((s) => s.instances.filter((i) => i.split === "visible").map((i) => [i.id, i.score])).sort()).toEqual([["after-1", 1], ["after-2", 1]]);
    // The held-out split still runs, in a container of its own.
    expect(child.scores.heldout).not.toBeNull();
  });

  it("records the count in run.json", async () => {
    const run = await readRunRecord(join(out, RUN_ID));
    expect(run.ok ? run.value.config.limits.evaluations : null).toBe(3);
  });
});
