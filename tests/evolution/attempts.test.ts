/**
 * ImproveRequest.attempts from archive records: which relatives' children are listed and in
 * what order, the outcome of each (whole visible score and delta, a race's stop, a failure's
 * stage and code, a duplicate), the bounds on count and size, and never the held-out split.
 */
import { describe, expect, it } from "vitest";
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import { ATTEMPT_SUMMARY_CHARS, attemptsNear, attemptViews, buildImproveRequest } from "../../harness/src/evolution/index.js";
import { AttemptView } from "../../harness/src/llm/index.js";
import { evaluated, evaluationResult, generationRecord, instanceResult, invalidAt, stageResult } from "../support/records.js";

/** A valid generation scored `visible` on three visible instances (held-out 0.987654 in its record). */
function valid(id: string, parent: string | null, visible: number, summary: string, coverage = 3): GenerationRecord {
  const instances = Array.from({ length: coverage }, (_, i) => instanceResult({ id: `v${i}`, score: visible }));
  const heldout = stageResult("heldout", [instanceResult({ id: "SECRET-h0", split: "heldout", score: 0.987654, feedback: "SECRET-HELDOUT" })]);
  const evaluation = evaluationResult([stageResult("stage1", instances), heldout], {
    coverage: { evaluated: coverage, of: 3 },
    ...(coverage < 3 ? { race: { stop: "below_parent" as const, target: 0.9, upper: 0.7, confidence: 0.95 } } : {}),
  });
  const record = generationRecord({ id, parent, depth: 0, ...evaluated(evaluation), summary });
  return coverage < 3 ? { ...record, scores: { ...record.scores, visible: null } } : record;
}

function invalid(id: string, parent: string, summary: string): GenerationRecord {
  return generationRecord({ id, parent, depth: 1, ...invalidAt("policy", "empty_diff"), summary });
}

// g0000 ─┬─ g0001 (the parent) ─┬─ g0004 (valid)  ─ g0009 (a grandchild: not listed)
//        │                      ├─ g0005 (empty)
//        │                      └─ g0008 (race stopped)
//        ├─ g0002 (valid) ─── g0006 (cousin, empty)
//        ├─ g0003 (compile error)
//        └─ g0007 (duplicate of g0004)
const ARCHIVE: GenerationRecord[] = [
  valid("g0000", null, 0.6, "seed"),
  valid("g0001", "g0000", 0.8, "offline: params.a 1→2 (task/x.ts)"),
  valid("g0002", "g0000", 0.7, "offline: params.b true→false (task/x.ts)"),
  generationRecord({ id: "g0003", parent: "g0000", depth: 1, ...invalidAt("compile", "type_error"), summary: "broke it" }),
  valid("g0004", "g0001", 0.9, "offline: params.c 3→4 (task/x.ts)"),
  invalid("g0005", "g0001", "offline: no move helped (parent 0.8000; tried 3)"),
  invalid("g0006", "g0002", "offline: nothing"),
  generationRecord({ id: "g0007", parent: "g0000", depth: 1, status: { kind: "duplicate", of: "g0004" }, evaluation: null, scores: { visible: null, heldout: null, stage1: null }, summary: "same tree" }),
  valid("g0008", "g0001", 0.2, "offline: params.d 1→9 (task/x.ts)", 1),
  valid("g0009", "g0004", 0.95, "deeper"),
];

describe("attempts near a parent", () => {
  it("are its children, then its siblings, then its cousins, newest first within each", () => {
    expect(attemptsNear(ARCHIVE, "g0001", 50).map((g) => g.id)).toEqual(["g0008", "g0005", "g0004", "g0007", "g0003", "g0002", "g0006"]);
    expect(attemptsNear(ARCHIVE, "g0001", 3).map((g) => g.id)).toEqual(["g0008", "g0005", "g0004"]);
    expect(attemptsNear(ARCHIVE, "g0001", 0)).toEqual([]);
    // The seed has no parent: only its own children are near it.
    expect(attemptsNear(ARCHIVE, "g0000", 50).map((g) => g.id)).toEqual(["g0007", "g0003", "g0002", "g0001"]);
  });

  it("say what became of each, from the records, and nothing of the held-out split", () => {
    const views = attemptViews(attemptsNear(ARCHIVE, "g0001", 50), "g0001", ARCHIVE);
    for (const v of views) AttemptView.parse(v);
    const byId = new Map(views.map((v) => [v.id, v]));
    expect(byId.get("g0004")).toEqual({ id: "g0004", parent: "g0001", relation: "sibling", summary: "offline: params.c 3→4 (task/x.ts)", outcome: { kind: "valid", score: 0.9, delta: expect.closeTo(0.1, 12) } });
    expect(byId.get("g0005")?.outcome).toEqual({ kind: "invalid", stage: "policy", code: "empty_diff" });
    expect(byId.get("g0008")?.outcome).toEqual({ kind: "stopped", evaluated: 1, of: 3, target: 0.9 });
    expect(byId.get("g0002")).toMatchObject({ relation: "parent_sibling", outcome: { kind: "valid", score: expect.closeTo(0.7, 12), delta: expect.closeTo(0.1, 12) } });
    expect(byId.get("g0006")).toMatchObject({ relation: "cousin", parent: "g0002", outcome: { kind: "invalid", code: "empty_diff" } });
    expect(byId.get("g0007")?.outcome).toEqual({ kind: "duplicate", of: "g0004" });
    expect(byId.get("g0003")?.outcome).toEqual({ kind: "invalid", stage: "compile", code: "type_error" });
    const text = JSON.stringify(views);
    expect(text).not.toMatch(/SECRET|0\.987654|heldout/i);
  });

  it("cap each summary to one line of ATTEMPT_SUMMARY_CHARS", () => {
    const long = valid("g0010", "g0001", 0.5, `line one\nline two\u0000${"x".repeat(5000)}`);
    const [view] = attemptViews([long], "g0001", [...ARCHIVE, long]);
    expect(view?.summary.length).toBe(ATTEMPT_SUMMARY_CHARS);
    expect(view?.summary).toMatch(/^line one line two x+…$/);
  });

  it("go into the request in the order given; none when the run shows none", () => {
    const parent = ARCHIVE[1]!;
    const inputs = { manifest: { name: "t", description: "d", metric: "m", direction: "maximize" as const, instanceTimeoutMs: 1, evaluationTimeoutMs: 1, stages: { stage1Size: 1, threshold: 0 }, repeats: 1 }, generation: { id: "g0011", parent: "g0001", depth: 2 }, seed: 1, parent, lineage: [ARCHIVE[0]!, parent], llmTokens: null, deadline: 1, evaluations: 0 };
    const attempts = attemptViews(attemptsNear(ARCHIVE, "g0001", 2), "g0001", ARCHIVE);
    expect(buildImproveRequest({ ...inputs, attempts }).attempts?.map((a) => a.id)).toEqual(["g0008", "g0005"]);
    expect("attempts" in buildImproveRequest(inputs)).toBe(false);
    expect(JSON.stringify(buildImproveRequest({ ...inputs, attempts }))).not.toMatch(/SECRET|0\.987654/);
  });
});
