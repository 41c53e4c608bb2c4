import { describe, expect, it } from "vitest";
import { ArchiveEvent, GenerationRecord, RUN_SCHEMA_VERSION, RunRecord, TranscriptLine } from "../../harness/src/archive/index.js";
import { createRng } from "../../harness/src/selection/index.js";
import { FAILURE_CODES } from "../../harness/src/results/index.js";
import { AT, generationRecord, invalidAt, runRecord } from "../support/records.js";

/** JSON out and back in through the schema gives the same value. */
function roundTrip<T>(schema: { parse(v: unknown): T }, value: T): T {
  return schema.parse(JSON.parse(JSON.stringify(value)));
}

describe("RunRecord", () => {
  it("round-trips, with and without a branch origin and RNG state", () => {
    const plain = runRecord();
    expect(roundTrip(RunRecord, plain)).toEqual(plain);
    const branched = runRecord({
      from: { run: "older-run", generation: "g0012", lineage: ["g0000", "g0003", "g0012"] },
      status: "interrupted",
      rng: createRng(3).state(),
    });
    expect(roundTrip(RunRecord, branched)).toEqual(branched);
  });

  it("rejects another schema version, an unknown strategy and a run id with a slash", () => {
    const run = runRecord();
    expect(RunRecord.safeParse(run).success).toBe(true);
    expect(RunRecord.safeParse({ ...run, schemaVersion: RUN_SCHEMA_VERSION + 1 }).success).toBe(false);
    expect(RunRecord.safeParse({ ...run, config: { ...run.config, selection: "roulette" } }).success).toBe(false);
    expect(RunRecord.safeParse({ ...run, id: "../x" }).success).toBe(false);
  });
});

describe("GenerationRecord", () => {
  it("round-trips a valid, evaluated generation", () => {
    // A phase the schema does not name is kept (timings are open to new phases).
    const g = generationRecord({ snapshotHash: "a".repeat(64), costUsd: 0.0123, model: "gpt-4o-mini", timings: { compile: 300, custom_phase: 3 } });
    expect(roundTrip(GenerationRecord, g)).toEqual(g);
    expect(roundTrip(GenerationRecord, g).timings).toEqual({ compile: 300, custom_phase: 3 });
  });

  it("round-trips an invalid generation for every stage", () => {
    for (const stage of ["policy", "compile", "signature", "import", "self_modify", "extract"] as const) {
      const where = { file: stage === "compile" ? "task/index.ts" : null, line: null };
      const code = FAILURE_CODES[stage][0];
      const g = generationRecord({ id: "g0003", parent: "g0001", depth: 2, ...invalidAt(stage, code, "why", where) });
      expect(roundTrip(GenerationRecord, g)).toEqual(g);
      expect(g.status).toEqual({ kind: "invalid", stage, code, message: "why", ...where });
    }
  });

  it("rejects a failure code that is unknown, or belongs to another stage, naming the field", () => {
    const status = { kind: "invalid", stage: "policy", message: "why", file: null, line: null };
    for (const code of ["x", "type_error"]) {
      const parsed = GenerationRecord.safeParse({ ...generationRecord(), status: { ...status, code } });
      expect(parsed.success, code).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["status", "code"]);
    }
    expect(GenerationRecord.safeParse({ ...generationRecord(), status: { ...status, code: "empty_diff" } }).success).toBe(true);
  });

  it("rejects malformed ids, hashes, negative depths and unknown stages", () => {
    const g = generationRecord();
    expect(GenerationRecord.safeParse(g).success).toBe(true);
    expect(GenerationRecord.safeParse({ ...g, id: "7" }).success).toBe(false);
    expect(GenerationRecord.safeParse({ ...g, snapshotHash: "xyz" }).success).toBe(false);
    expect(GenerationRecord.safeParse({ ...g, depth: -1 }).success).toBe(false);
    const bad = { ...g, status: { kind: "invalid", stage: "evaluate", code: "", message: "", file: null, line: null } };
    expect(GenerationRecord.safeParse(bad).success).toBe(false);
  });
});

describe("ArchiveEvent", () => {
  const events: ArchiveEvent[] = [
    { type: "started", at: AT, run: "r", pid: 12, host: "lab-1" },
    { type: "selected", at: AT, generation: "g0004", parent: "g0001", strategy: "hyperagents", rng: createRng(1).state() },
    { type: "self_modified", at: AT, generation: "g0004", ok: false, error: "timeout", durationMs: 3 },
    { type: "checking", at: AT, generation: "g0004", snapshotHash: "ab12" },
    { type: "validated", at: AT, generation: "g0004", ok: false, stage: "compile", code: "syntax_error" },
    { type: "evaluated", at: AT, generation: "g0004", visible: 0.5, heldout: 0.4, stage1: 0.6 },
    { type: "recorded", at: AT, generation: "g0004", status: "invalid" },
    { type: "approval_requested", at: AT, generation: "g0005", reasons: ["changes meta/index.ts (approval path meta/**)"], deadline: null },
    { type: "approved", at: AT, generation: "g0005", by: "ada", note: null },
    { type: "rejected", at: AT, generation: "g0006", by: "timeout", reason: "nobody answered within 1 minute", timedOut: true },
    { type: "engine", at: AT, engine: "box-a", state: "down", reason: "no answer within 5000 ms" },
    { type: "redone", at: AT, generation: "g0006", attempt: 2, reason: "the engine box-a stopped answering" },
    { type: "resumed", at: AT, recorded: 4, pid: 13, host: "lab-1" },
    { type: "interrupted", at: AT, reason: "SIGINT" },
    { type: "arena", at: AT, round: 2, phase: "tests", suite: 5, admitted: 2, retired: 1 },
    { type: "finished", at: AT, best: null },
  ];

  it("round-trips every event type", () => {
    expect(new Set(events.map((e) => e.type)).size).toBe(ArchiveEvent.options.length);
    for (const e of events) expect(roundTrip(ArchiveEvent, e)).toEqual(e);
  });

  it("rejects an unknown type and an event without its generation", () => {
    expect(ArchiveEvent.safeParse({ type: "exploded", at: AT }).success).toBe(false);
    expect(ArchiveEvent.safeParse({ type: "recorded", at: AT, status: "valid" }).success).toBe(false);
  });
});

describe("TranscriptLine", () => {
  it("keeps every field beyond kind and at", () => {
    const entry = { kind: "llm_response", at: AT, tokens: { prompt: 3 }, content: "hi" };
    expect(roundTrip(TranscriptLine, entry)).toEqual(entry);
  });

  it("needs kind and an ISO time", () => {
    expect(TranscriptLine.safeParse({ at: AT }).success).toBe(false);
    expect(TranscriptLine.safeParse({ kind: "x", at: "yesterday" }).success).toBe(false);
  });
});
