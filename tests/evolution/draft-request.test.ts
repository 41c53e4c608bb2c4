/**
 * ctx.evaluate's refusals without a container: how a request is read against the visible
 * split, and the calls the evaluator refuses before touching the workspace (no count left,
 * the deadline too near, the generation over), and the --evaluations option. The calls
 * that run are in self-test.test.ts.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { EvaluateResult } from "@evolve/contract";
import { loadTask, type Task } from "../../harness/src/evaluation/index.js";
import { createDraftEvaluator, MAX_LISTED_IDS, MIN_WINDOW_MS, planDraftRequest, RunOptions, type RunContext } from "../../harness/src/evolution/index.js";
import { evolve } from "../inspect/cli-harness.js";
import type { LiveWorkspace } from "../../sandbox/src/index.js";

const TASK = new URL("../security/fixtures/sec-sum/", import.meta.url).pathname;
let task: Task;

beforeAll(async () => {
  task = await loadTask(TASK);
});

describe("planDraftRequest", () => {
  it("runs the stage-1 subset by default, the whole split on 'visible', and listed visible ids in their order", () => {
    expect(planDraftRequest({}, task)).toMatchObject({ ok: true, kind: "stage1", describe: "stage1" });
    expect(planDraftRequest({ instances: "visible" }, task)).toMatchObject({ ok: true, kind: "visible" });
    const plan = planDraftRequest({ instances: ["after-2", "after-1"] }, task);
    expect(plan.ok && plan.kind === "subset" ? plan.subset.map((i) => i.id) : plan).toEqual(["after-2", "after-1"]);
    // The very instance objects of the split: evaluateCandidate refuses anything else.
    expect(plan.ok && plan.kind === "subset" ? plan.subset[0] : null).toBe(task.visible[1]);
  });

  it("refuses a held-out id in the words it refuses an unknown one", () => {
    const heldout = planDraftRequest({ instances: ["heldout-sec-1"] }, task);
    const unknown = planDraftRequest({ instances: ["nope"] }, task);
    expect(heldout.ok || unknown.ok).toBe(false);
    const reason = (p: typeof heldout): string => (p.ok ? "" : p.reason);
    expect(reason(heldout).replace("heldout-sec-1", "nope")).toBe(reason(unknown));
    expect(reason(unknown)).not.toContain("heldout");
  });

  it("refuses huge lists before reading them, duplicates, and anything the contract does not allow", () => {
    const huge = planDraftRequest({ instances: Array.from({ length: MAX_LISTED_IDS + 1 }, () => 7) }, task);
    expect(huge.ok ? "" : huge.reason).toMatch(/^too many instance ids/);
    expect(planDraftRequest({ instances: ["after-1", "after-1"] }, task)).toMatchObject({ ok: false, reason: expect.stringMatching(/more than once/) });
    for (const bad of [null, 5, "visible", [], { instances: [] }, { instances: "heldout" }, { instances: "visible", extra: 1 }, { instances: ["x".repeat(201)] }]) {
      const plan = planDraftRequest(bad, task);
      expect(plan.ok, JSON.stringify(bad)).toBe(false);
      expect(plan.ok ? "" : plan.reason).toMatch(/^malformed request/);
    }
  });
});

/** A context whose every part but the task and the count fails when touched. */
function refusingContext(evaluations: number): RunContext {
  const untouchable = new Proxy({}, { get: (_, key) => { throw new Error(`touched ${String(key)}`); } });
  return { task, evaluations, signal: new AbortController().signal, workRoot: "/nonexistent", sandbox: untouchable, validator: untouchable } as unknown as RunContext;
}

const workspace: LiveWorkspace = {
  take: () => Promise.reject(new Error("a refused call must not take the workspace")),
};

describe("createDraftEvaluator refusals", () => {
  it("refuses every call when the run allows none, and counts none", async () => {
    const drafts = createDraftEvaluator({ ctx: refusingContext(0), generationId: "g0001", parentSnapshotDir: "/nonexistent", deadline: Date.now() + 60_000 });
    const result = (await drafts.onEvaluate({}, workspace)) as EvaluateResult;
    expect(result).toEqual({ outcome: "refused", reason: expect.stringMatching(/allows no evaluations/), remaining: 0 });
    expect(drafts.usage()).toMatchObject({ calls: 1, counted: 0, containers: 0 });
    expect(await drafts.close()).toBeNull();
  });

  it("refuses a call too close to the deadline without spending the count", async () => {
    const drafts = createDraftEvaluator({ ctx: refusingContext(3), generationId: "g0001", parentSnapshotDir: "/nonexistent", deadline: Date.now() + MIN_WINDOW_MS - 2_000 });
    const result = (await drafts.onEvaluate({ instances: "visible" }, workspace)) as EvaluateResult;
    expect(result).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/deadline is \d+ s away/), remaining: 3 });
    expect(drafts.transcript()).toMatchObject([{ kind: "evaluate", request: "visible", result: { outcome: "refused", remaining: 3 }, containers: 0 }]);
  });

  it("refuses calls once the generation is over", async () => {
    const drafts = createDraftEvaluator({ ctx: refusingContext(3), generationId: "g0001", parentSnapshotDir: "/nonexistent", deadline: Date.now() + 60_000 });
    await drafts.close();
    expect(await drafts.onEvaluate({}, workspace)).toMatchObject({ outcome: "refused", reason: "the generation is over", remaining: 3 });
  });

  it("answers a malformed request before anything else, with what it expected", async () => {
    const drafts = createDraftEvaluator({ ctx: refusingContext(3), generationId: "g0001", parentSnapshotDir: join("/", "nonexistent"), deadline: Date.now() + 60_000 });
    expect(await drafts.onEvaluate({ instances: 42 }, workspace)).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/expected \{ instances\?/), remaining: 3 });
  });
});

describe("--evaluations", () => {
  it("defaults to 3, takes 0 to turn ctx.evaluate off, and refuses more than 50", async () => {
    expect(RunOptions.parse({}).evaluations).toBe(3);
    expect(RunOptions.parse({ evaluations: 0 }).evaluations).toBe(0);
    expect(RunOptions.safeParse({ evaluations: 51 }).success).toBe(false);
    expect(RunOptions.safeParse({ evaluations: 1.5 }).success).toBe(false);
    const refused = await evolve("run", "--evaluations", "51", "--out", "/nonexistent-evolve-root");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/evaluations/);
  });
});
