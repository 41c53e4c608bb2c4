import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { judgeProposals, type ProposalVerdict } from "../../harness/src/arena/index.js";
import { loadTask } from "../../harness/src/evaluation/index.js";

const task = await loadTask(join(import.meta.dirname, "fixtures/trap-oracle"));
const scratch = await mkdtemp(join(tmpdir(), "evolve-judge-"));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const codes = (verdicts: ProposalVerdict[]): string[] => verdicts.map((v) => (v.outcome === "accepted" ? "accepted" : v.code));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Judge workers still running under this process. */
const judgeWorkers = (): string[] =>
  execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes("judge-worker-entry"));
const pidOf = (v: ProposalVerdict | undefined): number => Number(/^pid (\d+)$/.exec(v?.outcome === "accepted" ? v.verdict : "")?.[1]);

describe("judgeProposals", () => {
  it("accepts a good proposal as an instance with its test id, and discards each kind of bad one with its reason", async () => {
    const verdicts = await judgeProposals(
      task,
      [
        { kind: "sum", a: 2, b: 3 },
        { kind: "refuse", a: 1, b: 1 },
        { kind: "throw", a: 1, b: 1 },
        { kind: "malformed", a: 1, b: 1 },
        { kind: "bad-instance", a: 1, b: 1 },
        { kind: "wrong-id", a: 1, b: 1 },
        { kind: "sum", a: 1.5, b: 1 },
        { kind: "sum", a: 1, b: 1, extra: true },
      ],
      { idPrefix: "arena-t0003" },
    );
    expect(codes(verdicts)).toEqual(["accepted", "oracle_refused", "oracle_failed", "oracle_failed", "instance_schema", "instance_schema", "schema", "schema"]);
    expect(verdicts[0]).toEqual({ index: 0, outcome: "accepted", id: "arena-t0003-1", instance: { id: "arena-t0003-1", a: 2, b: 3 }, proposal: { kind: "sum", a: 2, b: 3 }, verdict: "2 + 3 = 5" });
    expect(verdicts[1]).toMatchObject({ index: 1, reason: "not a sum I judge" });
    expect(verdicts[2]).toMatchObject({ reason: expect.stringContaining("trap door") });
    expect(verdicts[5]).toMatchObject({ reason: expect.stringContaining("arena-t0003-6") });
    expect(verdicts[6]).toMatchObject({ reason: expect.stringMatching(/^a: /) });
    expect(verdicts[7]).toMatchObject({ reason: expect.stringContaining("extra") });
  });

  it("bounds a hang, a heap blow-up, a pending promise, a looping refine and an exit; the proposal after each is judged by a fresh worker", async () => {
    const started = Date.now();
    const verdicts = await judgeProposals(
      task,
      [
        { kind: "hang", a: 1, b: 1 },
        { kind: "pid", a: 1, b: 1 },
        { kind: "heap", a: 1, b: 1 },
        { kind: "pid", a: 2, b: 1 },
        { kind: "never", a: 1, b: 1 },
        { kind: "sum", a: -1, b: 1 },
        { kind: "exit", a: 1, b: 1 },
        { kind: "pid", a: 3, b: 1 },
      ],
      { idPrefix: "arena-t0001", timeoutMs: 1_500, memoryMb: 96 },
    );
    expect(codes(verdicts)).toEqual(["oracle_timeout", "accepted", "oracle_memory", "accepted", "oracle_timeout", "oracle_timeout", "oracle_failed", "accepted"]);
    expect(verdicts[0]).toMatchObject({ reason: "the oracle did not answer within 1.5 s of CPU time (15 s of wall time at most); its process was stopped" });
    expect(verdicts[2]).toMatchObject({ reason: expect.stringContaining("96 MiB") });
    expect(verdicts[6]).toMatchObject({ reason: expect.stringContaining("exit code 3") });
    const pids = [verdicts[1], verdicts[3], verdicts[7]].map(pidOf);
    expect(new Set(pids).size).toBe(3);
    expect(pids.filter(alive)).toEqual([]);
    expect(judgeWorkers()).toEqual([]);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it("reads only perRound proposals and collapses the rest into one over_count verdict; size and JSON are checked on the host", async () => {
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    // JSON through toJSON, yet not structured-clonable: the worker gets the JSON text.
    const withFunction = { f: () => 1, toJSON: () => ({ kind: "sum", a: 4, b: 4 }) };
    const flood = [{ kind: "sum", a: 1, b: 1, pad: "x".repeat(300) }, { a: 1n }, circular, { kind: "pid", a: 9, b: 9 }, withFunction, undefined, ...Array.from({ length: 5002 }, () => ({ kind: "sum", a: 0, b: 0 }))];
    const verdicts = await judgeProposals(task, flood, { idPrefix: "arena-t0002" });
    expect(verdicts).toHaveLength(9);
    expect(codes(verdicts)).toEqual(["too_large", "not_json", "not_json", "accepted", "accepted", "not_json", "accepted", "accepted", "over_count"]);
    expect(verdicts[4]).toMatchObject({ proposal: { kind: "sum", a: 4, b: 4 }, instance: { id: "arena-t0002-5", a: 4, b: 4 } });
    expect(verdicts[8]).toEqual({ index: 8, outcome: "discarded", code: "over_count", reason: "5,000 more proposals past the cap of 8 were not read" });
    expect(verdicts[0]).toMatchObject({ reason: expect.stringMatching(/over the oracle's limit of 200/) });
    expect(alive(pidOf(verdicts[3]))).toBe(false);
    expect(judgeWorkers()).toEqual([]);
  });

  it("starts no worker when every proposal fails on the host", async () => {
    const verdicts = await judgeProposals(task, [{ pad: "y".repeat(500) }], { idPrefix: "arena-t0002" });
    expect(codes(verdicts)).toEqual(["too_large"]);
  });

  it("discards every remaining proposal as oracle_failed when the worker cannot load the grader", async () => {
    await writeFile(join(scratch, "grader.ts"), 'throw new Error("cannot load here");\n');
    const verdicts = await judgeProposals({ ...task, dir: scratch }, [{ kind: "sum", a: 1, b: 1 }, { pad: "z".repeat(500) }, { kind: "sum", a: 2, b: 2 }], { idPrefix: "arena-t0004" });
    expect(codes(verdicts)).toEqual(["oracle_failed", "too_large", "oracle_failed"]);
    expect(verdicts[0]).toMatchObject({ reason: expect.stringMatching(/could not start: .*cannot load here/) });
    expect(verdicts[2]).toMatchObject({ reason: (verdicts[0] as { reason: string }).reason });
    expect(judgeWorkers()).toEqual([]);
  });
});
