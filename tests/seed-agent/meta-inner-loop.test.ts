/**
 * The offline strategy's inner loop, run by the trusted runner on the in-memory engine: the host
 * side of ctx.evaluate is scripted here (scores by call, the draft taken out of the live
 * workspace each time), so the test knows which draft deserved to be kept. It must keep the
 * best draft (not the last), leave the parent's tree unchanged when no draft beats the
 * parent, and do the same for the same seed and scores.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluateResult } from "@evolve/contract";
import type { WireJson } from "../../harness/src/kernel/index.js";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { compileTree, oneKnobTree, SEED_DIR } from "./agent-tree.js";
import { readOwnTree } from "../../harness/src/archive/index.js";
import { improveRequest } from "./improve-request.js";
import { seedImprove } from "./seed-improve.js";

let env: TestEngine;
let work: string;
let tree: string;
let build: string;
let validator: Validator;

/** The seed with one task knob, `params.iterations`, which every proposal moves (one move each). */
beforeAll(async () => {
  env = await memoryEngine();
  work = await mkdtemp(join(tmpdir(), "evolve-inner-loop-"));
  validator = createValidator();
  tree = join(work, "tree");
  await oneKnobTree(tree);
  build = join(work, "build");
  expect(await compileTree(validator, tree, build, SEED_DIR)).toBeNull();
});
afterAll(async () => {
  await validator.close();
  await rm(work, { recursive: true, force: true });
});

interface Draft {
  request: unknown;
  iterations: string | undefined;
}

/** Runs improve with ctx.evaluate answering `answers` in turn (and refusing past them); `budget` is what the request says. */
async function improveWith(seed: number, answers: readonly ((remaining: number) => EvaluateResult)[], budget = answers.length) {
  const drafts: Draft[] = [];
  const { report, tree: after } = await seedImprove(env, {
    agentDir: tree,
    buildDir: build,
    workDir: work,
    task: "fixture",
    seed,
    request: improveRequest("fixture", seed, [], budget),
    onEvaluate: async (request, workspace) => {
      const dir = await mkdtemp(join(work, "draft-"));
      const taken = await workspace.take(join(dir, "tree"));
      expect(taken.ok).toBe(true);
      const text = await readFile(join(dir, "tree", "task/fixture.ts"), "utf8");
      drafts.push({ request, iterations: /iterations: (\d+),/.exec(text)?.[1] });
      const answer = answers[drafts.length - 1];
      const remaining = Math.max(0, answers.length - drafts.length);
      return (answer === undefined ? { outcome: "refused", reason: "no evaluations left", remaining: 0 } : answer(remaining)) as unknown as WireJson;
    },
  });
  return { report, after, drafts };
}

const evaluated = (score: number) => (remaining: number): EvaluateResult => ({ outcome: "evaluated", score, instances: [], stderr: "", remaining });
const invalid = (remaining: number): EvaluateResult => ({ outcome: "invalid", stage: "compile", code: "type_error", message: "task/fixture.ts:2 - nope", remaining });

describe("seed meta agent, offline strategy with ctx.evaluate", () => {
  it("tests several moves from the best draft so far and keeps the best one, not the last", async () => {
    const first = await improveWith(5, [evaluated(0.5), evaluated(0.9), evaluated(0.7)]);
    // The parent's feedback instances, so the parent's own scores are the bar (mean 0.42).
    expect(first.drafts.map((d) => d.request)).toEqual(Array(3).fill({ instances: ["n26", "n20"] }));
    const [one, two, three] = first.drafts.map((d) => d.iterations);
    expect(new Set([one, two, three, "400"]).size).toBe(4);
    // Draft 1 (0.5) beat the parent, draft 2 (0.9) beat draft 1, draft 3 (0.7) did not.
    expect(first.after.get("task/fixture.ts")).toContain(`iterations: ${two}, // evolve:range`);
    expect(first.report.changedFiles).toEqual(["task/fixture.ts"]);
    expect(first.report.summary).toMatch(new RegExp(`^offline: params\\.iterations 400→${two} \\(task/fixture\\.ts\\); inner loop kept it: 0\\.4200 -> 0\\.9000 \\(tried 3 on 2 visible instances: 0\\.5000, 0\\.9000, 0\\.7000\\)$`));

    const again = await improveWith(5, [evaluated(0.5), evaluated(0.9), evaluated(0.7)]);
    expect(again.drafts.map((d) => d.iterations)).toEqual(first.drafts.map((d) => d.iterations));
    expect(again.after).toEqual(first.after);
    expect(again.report).toEqual(first.report);
  });

  it("leaves the parent's tree unchanged and says so when no move beats the parent", async () => {
    const parent = await readOwnTree(tree);
    const { report, after, drafts } = await improveWith(6, [invalid, evaluated(0.42), evaluated(0.3)]);
    expect(drafts).toHaveLength(3);
    expect(after).toEqual(parent);
    expect(report.changedFiles).toEqual([]);
    expect(report.summary).toBe("offline: no move helped (parent 0.4200; tried 3 on 2 visible instances: compile type_error, 0.4200, 0.3000)");
  });

  it("stops at a refusal and keeps what it had", async () => {
    const { report, after, drafts } = await improveWith(7, [evaluated(0.6)], 3);
    expect(drafts).toHaveLength(2);
    expect(after.get("task/fixture.ts")).toContain(`iterations: ${drafts[0]?.iterations}, // evolve:range`);
    expect(report.summary).toMatch(/inner loop kept it: 0\.4200 -> 0\.6000 \(tried 1 on 2 visible instances: 0\.6000; evaluate refused: no evaluations left\)$/);
  });
});
