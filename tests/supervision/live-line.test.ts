/** What a person watching a supervised run sees: pending children counted on the live line, decisions as lines, the summary's tally. */
import { describe, expect, it } from "vitest";
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import { formatSummary, Progress, summarise } from "../../harness/src/evolution/index.js";
import { AT, generationRecord, scored } from "../support/records.js";

const seed = generationRecord({ id: "g0000", ...scored(0.5, 0.4) });
const asked = (id: string, visible: number): GenerationRecord =>
  generationRecord({ id, parent: "g0000", depth: 1, ...scored(visible, 0.5), approval: { reasons: ["changes meta/llm.ts (approval path meta/**)"], deadline: null, decision: null } });
const decided = (g: GenerationRecord, verdict: "approved" | "rejected"): GenerationRecord => ({
  ...g,
  approval: { reasons: g.approval?.reasons ?? [], deadline: null, decision: { schemaVersion: 1, generation: g.id, verdict, by: "ada", at: AT, note: "ok", timedOut: false } },
});

describe("the live line of a supervised run", () => {
  it("counts pending children, and leaves them out of the best until approved", () => {
    const chunks: string[] = [];
    const progress = new Progress({ isTTY: false, write: (t) => void chunks.push(t) }, 4, [seed], { supervised: true });
    const g1 = asked("g0001", 0.9);
    progress.childStarted();
    progress.recorded(g1);
    expect(chunks.join("")).toContain("g0001 <- g0000 [1/4] valid: visible 0.9000, held-out 0.5000, waits for approval (changes meta/llm.ts (approval path meta/**))");
    expect(progress.line()).toMatch(/best 0\.5000 \| valid 1 invalid 0 pending 1 \|/);
    progress.decided(decided(g1, "approved"));
    expect(chunks.join("")).toContain("g0001 approved by ada: ok\n");
    expect(progress.line()).toMatch(/best 0\.9000 \| valid 1 invalid 0 pending 0 \|/);
    progress.stop();
  });

  it("does not mention pending children when the run asks for no approval", () => {
    const progress = new Progress({ isTTY: false, write: () => undefined }, 4, [seed]);
    expect(progress.line()).not.toContain("pending");
    progress.stop();
  });
});

describe("the summary of a supervised run", () => {
  it("tallies pending, approved and rejected children and says how to see the pending ones", () => {
    const records = [seed, decided(asked("g0001", 0.9), "approved"), decided(asked("g0002", 0.95), "rejected"), asked("g0003", 0.99)];
    const info = { runId: "r1", runDir: "/tmp/r1", end: "finished" as const, requested: 3, model: null, wallMs: 1000, report: { path: null, reason: "test" } };
    const summary = summarise(records, info);
    expect(summary.approvals).toEqual({ pending: 1, approved: 1, rejected: 1 });
    expect(summary.best?.id).toBe("g0001");
    expect(formatSummary(summary)).toContain("approval: 1 pending (evolve pending r1), 1 approved, 1 rejected");
    expect(summarise([seed], info).approvals).toBeNull();
  });
});
