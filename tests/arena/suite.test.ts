import { describe, expect, it } from "vitest";
import { admitTests, retireAllPassed, type ArenaTest } from "../../harness/src/arena/index.js";

function test(id: string, round: number, content: Record<string, unknown>): ArenaTest {
  return { id, instance: { id, ...content }, proposal: content as ArenaTest["proposal"], proposedBy: id.split("-")[1]!, round, verdict: "ok" };
}

/** candidate → test → score; a missing entry is undefined (never ran). */
function scores(table: Record<string, Record<string, number>>) {
  return (candidate: string, t: string): number | undefined => table[candidate]?.[t];
}

const visible = [{ id: "visible-1", a: 1, b: 2 }];

describe("admitTests", () => {
  it("discards duplicates of a visible instance, a suite test and an earlier fresh test, key order aside", () => {
    const suite = [test("arena-t0000-1", 1, { a: 5, b: 5 })];
    const fresh = [
      test("arena-t0001-1", 2, { b: 2, a: 1 }),
      test("arena-t0001-2", 2, { a: 5, b: 5 }),
      test("arena-t0001-3", 2, { a: 7, b: 0 }),
      test("arena-t0001-4", 2, { b: 0, a: 7 }),
    ];
    const result = admitTests({ suite, fresh, visible, population: ["g0001"], score: () => 0, passScore: 1, cap: 10 });
    expect(result.discarded).toEqual([
      { id: "arena-t0001-1", code: "duplicate", reason: "same instance as visible instance visible-1" },
      { id: "arena-t0001-2", code: "duplicate", reason: "same instance as test arena-t0000-1 of the suite" },
      { id: "arena-t0001-4", code: "duplicate", reason: "same instance as arena-t0001-3, proposed earlier this round" },
    ]);
    expect(result.admitted).toEqual(["arena-t0001-3"]);
    expect(result.suite.map((t) => t.id)).toEqual(["arena-t0000-1", "arena-t0001-3"]);
    expect(result.retired).toEqual([]);
  });

  it("discards a test every candidate passes, and counts a missing score as a failure", () => {
    const fresh = [test("arena-t0001-1", 1, { a: 1, b: 1 }), test("arena-t0001-2", 1, { a: 2, b: 2 }), test("arena-t0001-3", 1, { a: 3, b: 3 })];
    const score = scores({
      g0003: { "arena-t0001-1": 1, "arena-t0001-2": 1, "arena-t0001-3": 1 },
      g0005: { "arena-t0001-1": 1, "arena-t0001-3": 0.9 },
    });
    const result = admitTests({ suite: [], fresh, visible, population: ["g0003", "g0005"], score, passScore: 0.95, cap: 10 });
    expect(result.discarded).toEqual([{ id: "arena-t0001-1", code: "not_discriminating", reason: "every candidate of the code population passes it (g0003, g0005)" }]);
    // g0005 never ran arena-t0001-2 (a 0), and scored 0.9 < 0.95 on arena-t0001-3.
    expect(result.admitted).toEqual(["arena-t0001-2", "arena-t0001-3"]);
  });

  it("over the cap retires the tests failed by the fewest candidates, ties the oldest round then the earlier position", () => {
    const suite = [test("arena-t0000-1", 1, { n: 1 }), test("arena-t0000-2", 1, { n: 2 }), test("arena-t0001-1", 2, { n: 3 })];
    const fresh = [test("arena-t0002-1", 3, { n: 4 }), test("arena-t0002-2", 3, { n: 5 })];
    // failed by: t0000-1 → 2, t0000-2 → 1, t0001-1 → 1, t0002-1 → 1, t0002-2 → 2
    const score = scores({
      g0001: { "arena-t0000-2": 1, "arena-t0001-1": 1, "arena-t0002-1": 1 },
      g0002: {},
    });
    const result = admitTests({ suite, fresh, visible: [], population: ["g0001", "g0002"], score, passScore: 1, cap: 3 });
    expect(result.admitted).toEqual(["arena-t0002-1", "arena-t0002-2"]);
    expect(result.retired).toEqual([
      { id: "arena-t0000-2", reason: "over the suite cap of 3: failed by 1 of 2 candidates" },
      { id: "arena-t0001-1", reason: "over the suite cap of 3: failed by 1 of 2 candidates" },
    ]);
    expect(result.suite.map((t) => t.id)).toEqual(["arena-t0000-1", "arena-t0002-1", "arena-t0002-2"]);
  });

  it("may retire a test it just admitted: it is then both admitted and retired", () => {
    const suite = [test("arena-t0000-1", 1, { n: 1 })];
    const fresh = [test("arena-t0001-1", 2, { n: 2 })];
    const score = scores({ g0001: { "arena-t0001-1": 1 }, g0002: {} });
    const result = admitTests({ suite, fresh, visible: [], population: ["g0001", "g0002"], score, passScore: 1, cap: 1 });
    expect(result.admitted).toEqual(["arena-t0001-1"]);
    expect(result.retired.map((r) => r.id)).toEqual(["arena-t0001-1"]);
    expect(result.suite.map((t) => t.id)).toEqual(["arena-t0000-1"]);
  });
});

describe("retireAllPassed", () => {
  it("retires the tests every candidate passes and keeps the order of the rest", () => {
    const suite = [test("arena-t0000-1", 1, { n: 1 }), test("arena-t0000-2", 1, { n: 2 }), test("arena-t0000-3", 1, { n: 3 })];
    const score = scores({ g0001: { "arena-t0000-1": 1, "arena-t0000-2": 1, "arena-t0000-3": 1 }, g0002: { "arena-t0000-1": 1, "arena-t0000-3": 0.5 } });
    const result = retireAllPassed({ suite, population: ["g0001", "g0002"], score, passScore: 1 });
    expect(result.retired).toEqual([{ id: "arena-t0000-1", reason: "every candidate of the code population passes it (g0001, g0002)" }]);
    expect(result.suite.map((t) => t.id)).toEqual(["arena-t0000-2", "arena-t0000-3"]);
  });
});
