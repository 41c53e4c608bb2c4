/**
 * The pure half of supervision: the hand-written glob matcher, the policy file's schema (a
 * misspelt key is an error naming it), the approval rules and the approval states.
 */
import { describe, expect, it } from "vitest";
import { RunRecord } from "../../harness/src/archive/index.js";
import { EvolveError } from "../../harness/src/kernel/index.js";
import {
  approvalCleared,
  approvalDeadline,
  approvalReasons,
  approvalState,
  GlobPattern,
  hasApprovalRules,
  matchesGlob,
  parseRunPolicy,
  type FileChange,
} from "../../harness/src/supervision/index.js";
import { runRecord } from "../support/records.js";

describe("glob patterns", () => {
  it("match whole relative paths: * and ? stay inside a segment, ** spans any number of them", () => {
    const cases: [string, string, boolean][] = [
      ["meta/index.ts", "meta/**", true],
      ["meta/deep/er/x.ts", "meta/**", true],
      ["meta", "meta/**", false],
      ["metadata/x.ts", "meta/**", false],
      ["task/meta/x.ts", "meta/**", false],
      ["task/meta/x.ts", "**/meta/**", true],
      ["meta/x.ts", "**/meta/**", true],
      ["meta/prompts.ts", "meta/prompts.ts", true],
      ["meta/prompts.tsx", "meta/prompts.ts", false],
      ["meta/a.ts", "meta/*.ts", true],
      ["meta/sub/a.ts", "meta/*.ts", false],
      ["a.json", "**/*.json", true],
      ["x/y/a.json", "**/*.json", true],
      ["x/y/a.json5", "**/*.json", false],
      ["task/a1.ts", "task/a?.ts", true],
      ["task/a12.ts", "task/a?.ts", false],
      ["task/a.ts", "task/**/a.ts", true],
      ["task/x/y/a.ts", "task/**/**/a.ts", true],
      ["meta/x+y(1).ts", "meta/x+y(1).ts", true],
      ["meta/xxy1.ts", "meta/x+y(1).ts", false],
    ];
    for (const [path, pattern, expected] of cases) expect(matchesGlob(path, pattern), `${pattern} vs ${path}`).toBe(expected);
  });

  it("do not let a dot-file slip past a protected folder", () => {
    expect(matchesGlob("meta/.hidden.ts", "meta/**")).toBe(true);
    expect(matchesGlob("meta/.cfg", "meta/*")).toBe(true);
  });

  it("refuse what they do not support instead of taking it literally", () => {
    for (const bad of ["/meta/**", "meta/[ab].ts", "meta/{a,b}.ts", "!meta/**", "meta//x", "meta/", "../x", "meta/./x", "meta/a**", ""]) {
      expect(GlobPattern.safeParse(bad).success, bad).toBe(false);
    }
    for (const good of ["meta/**", "**", "*.ts", "task/a?.ts", "**/x/**"]) expect(GlobPattern.safeParse(good).success, good).toBe(true);
  });
});

describe("the policy file", () => {
  it("parses the documented shape, every key optional", () => {
    const text = '{ "protectedPaths": ["meta/prompts.ts"], "approval": { "paths": ["meta/**"], "maxChangedLines": 200, "addOrDeleteFiles": true, "timeoutMinutes": 60 } }';
    expect(parseRunPolicy(text, "p.json")).toEqual({
      protectedPaths: ["meta/prompts.ts"],
      approval: { paths: ["meta/**"], maxChangedLines: 200, addOrDeleteFiles: true, timeoutMinutes: 60 },
    });
    expect(parseRunPolicy("{}", "p.json")).toEqual({});
  });

  it("names a misspelt or unknown key, at the top level and inside approval", () => {
    const top = () => parseRunPolicy('{ "protectedPath": ["meta/**"] }', "p.json");
    expect(top).toThrow(EvolveError);
    expect(top).toThrow(/protectedPath/);
    expect(() => parseRunPolicy('{ "approval": { "maxLines": 3 } }', "p.json")).toThrow(/approval.*maxLines/);
    expect(() => parseRunPolicy('{ "approval": { "timeoutMinutes": -1 } }', "p.json")).toThrow(/approval\.timeoutMinutes/);
    expect(() => parseRunPolicy('{ "protectedPaths": ["meta/[x]"] }', "p.json")).toThrow(/protectedPaths\.0/);
    expect(() => parseRunPolicy("{ nope", "p.json")).toThrow(/not JSON/);
  });

  it("is an optional, strict field of run.json: a run without one still reads", () => {
    const plain = runRecord();
    expect(plain.policy).toBeUndefined();
    expect(RunRecord.safeParse(JSON.parse(JSON.stringify(plain))).success).toBe(true);
    const policy = { protectedPaths: ["meta/**"], approval: { maxChangedLines: 50 } };
    expect(RunRecord.parse({ ...plain, policy }).policy).toEqual(policy);
    const misspelt = RunRecord.safeParse({ ...plain, policy: { approval: { maxLines: 50 } } });
    expect(misspelt.success).toBe(false);
    expect(JSON.stringify(misspelt.error?.issues)).toContain("maxLines");
  });

  it("tells whether it asks for any approval", () => {
    expect(hasApprovalRules(undefined)).toBe(false);
    expect(hasApprovalRules({ protectedPaths: ["meta/**"] })).toBe(false);
    expect(hasApprovalRules({ approval: { timeoutMinutes: 5 } })).toBe(false);
    expect(hasApprovalRules({ approval: { paths: [] } })).toBe(false);
    expect(hasApprovalRules({ approval: { addOrDeleteFiles: true } })).toBe(true);
    expect(hasApprovalRules({ approval: { maxChangedLines: 0 } })).toBe(true);
  });
});

describe("approval rules", () => {
  const edit = (path: string, additions = 1, deletions = 1, change: FileChange["change"] = "modified"): FileChange => ({ path, change, additions, deletions });

  it("ask when a change touches an approval path, naming the files and the pattern", () => {
    const reasons = approvalReasons({ paths: ["meta/**"] }, [edit("task/a.ts"), edit("meta/llm.ts"), edit("meta/x/y.ts")]);
    expect(reasons).toEqual(["changes meta/llm.ts, meta/x/y.ts (approval path meta/**)"]);
    expect(approvalReasons({ paths: ["meta/**"] }, [edit("task/a.ts")])).toEqual([]);
  });

  it("ask when the diff has more changed lines than allowed (added plus deleted), not at exactly the limit", () => {
    expect(approvalReasons({ maxChangedLines: 10 }, [edit("a.ts", 3, 2), edit("b.ts", 4, 1)])).toEqual([]);
    expect(approvalReasons({ maxChangedLines: 10 }, [edit("a.ts", 3, 2), edit("b.ts", 4, 2)])).toEqual(["11 changed lines (more than maxChangedLines 10)"]);
  });

  it("ask when a file is added or deleted, only when the rule is on", () => {
    const changes = [edit("task/new.ts", 5, 0, "added"), edit("task/old.ts", 0, 5, "deleted"), edit("task/a.ts")];
    expect(approvalReasons({ addOrDeleteFiles: true }, changes)).toEqual(["adds task/new.ts", "deletes task/old.ts"]);
    expect(approvalReasons({ addOrDeleteFiles: false }, changes)).toEqual([]);
    expect(approvalReasons(undefined, changes)).toEqual([]);
  });

  it("give every reason that applies, and a deadline only with timeoutMinutes", () => {
    const rules = { paths: ["meta/**"], maxChangedLines: 0, addOrDeleteFiles: true, timeoutMinutes: 90 };
    expect(approvalReasons(rules, [edit("meta/new.ts", 1, 0, "added")])).toHaveLength(3);
    expect(approvalDeadline(rules, new Date("2025-01-01T00:00:00.000Z"))).toBe("2025-01-01T01:30:00.000Z");
    expect(approvalDeadline({ paths: ["meta/**"] }, new Date())).toBeNull();
  });
});

describe("approval states", () => {
  const decision = (verdict: "approved" | "rejected") => ({ verdict });
  const past = "2025-01-01T00:00:00.000Z";
  const future = "2999-01-01T00:00:00.000Z";

  it("read a request as pending, decided, or rejected once its deadline has passed unanswered", () => {
    expect(approvalState({})).toBe("not_required");
    expect(approvalState({ approval: { deadline: null, decision: null } })).toBe("pending");
    expect(approvalState({ approval: { deadline: future, decision: null } })).toBe("pending");
    expect(approvalState({ approval: { deadline: past, decision: null } })).toBe("rejected");
    // A decision made before the deadline stands after it.
    expect(approvalState({ approval: { deadline: past, decision: decision("approved") } })).toBe("approved");
    expect(approvalState({ approval: { deadline: null, decision: decision("rejected") } })).toBe("rejected");
  });

  it("clear only children that needed no approval or got it", () => {
    expect(approvalCleared({})).toBe(true);
    expect(approvalCleared({ approval: { deadline: null, decision: decision("approved") } })).toBe(true);
    expect(approvalCleared({ approval: { deadline: future, decision: null } })).toBe(false);
    expect(approvalCleared({ approval: { deadline: null, decision: decision("rejected") } })).toBe(false);
  });
});
