/**
 * The offline strategy's inner loop, run by the trusted runner on the in-memory engine: the host
 * side of ctx.evaluate is scripted here (scores by call, the draft taken out of the live
 * workspace each time), so the test knows which draft deserved to be kept. It must keep the
 * best draft (not the last), submit the best draft (not the parent's unchanged tree) when no
 * draft beats the parent, never draft a move a sibling already tried (the request's attempts),
 * and do the same for the same seed and scores.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Attempt, EvaluateResult, ImproveRequest } from "@evolve/contract";
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
async function improveWith(seed: number, answers: readonly ((remaining: number) => EvaluateResult)[], budget = answers.length, attempts?: Attempt[]) {
  const drafts: Draft[] = [];
  const request = improveRequest("fixture", seed, [], budget);
  const { report, tree: after } = await seedImprove(env, {
    agentDir: tree,
    buildDir: build,
    workDir: work,
    task: "fixture",
    seed,
    request: (attempts === undefined ? request : { ...(request as ImproveRequest), attempts }) as typeof request,
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

/**
 * Runs improve over the one-knob seed with `fixture` as task/fixture.ts; `answer` gets each
 * draft's tree as the workspace held it and says what ctx.evaluate answers.
 */
async function improveFixture(name: string, fixture: string, request: ReturnType<typeof improveRequest>, answer: (draft: ReadonlyMap<string, string>) => EvaluateResult) {
  const dir = join(work, `${name}-tree`);
  await oneKnobTree(dir);
  await writeFile(join(dir, "task/fixture.ts"), fixture);
  const buildDir = join(work, `${name}-build`);
  expect(await compileTree(validator, dir, buildDir, SEED_DIR)).toBeNull();
  const parent = await readOwnTree(dir);
  const { report, tree: after } = await seedImprove(env, {
    agentDir: dir,
    buildDir,
    workDir: work,
    task: "fixture",
    seed: 4,
    request,
    onEvaluate: async (_request, workspace) => {
      const draftDir = await mkdtemp(join(work, `${name}-draft-`));
      expect((await workspace.take(join(draftDir, "tree"))).ok).toBe(true);
      return answer(await readOwnTree(join(draftDir, "tree"))) as unknown as WireJson;
    },
  });
  return { report, after, parent };
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
    // The submitted move first (the lineage credits it), then every draft with its score (credited to none).
    const move = (from: string | undefined, to: string | undefined): string => `params\\.iterations ${from}→${to} \\(task/fixture\\.ts\\)`;
    expect(first.report.summary).toMatch(new RegExp(`^offline: ${move("400", two)}; inner loop kept it: 0\\.4200 -> 0\\.9000 \\(3 drafts on 2 visible instances\\) \\| drafts: ${move("400", one)} = 0\\.5000; ${move(one, two)} = 0\\.9000; ${move(two, three)} = 0\\.7000$`));

    const again = await improveWith(5, [evaluated(0.5), evaluated(0.9), evaluated(0.7)]);
    expect(again.drafts.map((d) => d.iterations)).toEqual(first.drafts.map((d) => d.iterations));
    expect(again.after).toEqual(first.after);
    expect(again.report).toEqual(first.report);
  });

  it("without attempts in the request, leaves the parent's tree unchanged when no move beats the parent, as before them", async () => {
    const parent = await readOwnTree(tree);
    const { report, after, drafts } = await improveWith(6, [invalid, evaluated(0.42), evaluated(0.3)]);
    expect(drafts).toHaveLength(3);
    expect(after).toEqual(parent);
    expect(report.changedFiles).toEqual([]);
    expect(report.summary).toMatch(/^offline: no move helped \(parent 0\.4200; 3 drafts on 2 visible instances\) \| drafts: .* = compile type_error; .* = 0\.4200; .* = 0\.3000$/);
  });

  it("with attempts, submits one more untried move, not the parent's unchanged tree, when no move beats the parent", async () => {
    const parent = await readOwnTree(tree);
    const { report, after, drafts } = await improveWith(6, [invalid, evaluated(0.42), evaluated(0.3)], 3, []);
    expect(drafts).toHaveLength(3);
    // Three different moves from the parent's tree, none drafted twice, and a fourth submitted untested.
    const drafted = drafts.map((d) => d.iterations);
    expect(new Set(drafted).size).toBe(3);
    const submitted = /iterations: (\d+),/.exec(after.get("task/fixture.ts") ?? "")?.[1];
    expect(after).not.toEqual(parent);
    expect(submitted).toBeDefined();
    expect([...drafted, "400"]).not.toContain(submitted);
    expect(report.changedFiles).toEqual(["task/fixture.ts"]);
    expect(report.summary).toMatch(new RegExp(`^offline: params\\.iterations 400→${submitted} \\(task/fixture\\.ts\\); untested, as no draft beat the parent \\(0\\.4200; 3 drafts on 2 visible instances\\) \\| drafts: .* = compile type_error; .* = 0\\.4200; .* = 0\\.3000$`));
  });

  it("drafts first a move that raised a close relative's score, where it still applies", async () => {
    const attempts: Attempt[] = [
      { id: "g0002", parent: "g0009", relation: "parent_sibling", summary: "offline: params.iterations 400→777 (task/fixture.ts); inner loop kept it: 0.3 -> 0.5", outcome: { kind: "valid", score: 0.5, delta: 0.2 } },
      { id: "g0003", parent: "g0009", relation: "cousin", summary: "offline: params.iterations 500→900 (task/fixture.ts)", outcome: { kind: "valid", score: 0.6, delta: 0.3 } },
    ];
    const { drafts } = await improveWith(9, [evaluated(0.3), evaluated(0.3), evaluated(0.3)], 3, attempts);
    // 400→777 applies here (the knob is at 400); 500→900 does not (it is not at 500).
    expect(drafts[0]?.iterations).toBe("777");
    expect(drafts.slice(1).map((d) => d.iterations)).not.toContain("900");
  });

  it("never drafts a move a sibling already tried from this parent (kept or only drafted)", async () => {
    const before = await improveWith(8, [evaluated(0.3), evaluated(0.3), evaluated(0.3)], 3, []);
    const tried = before.drafts.map((d) => d.iterations);
    expect(new Set(tried).size).toBe(3);
    const moves = tried.map((to) => `params.iterations 400→${to} (task/fixture.ts)`);
    const attempts: Attempt[] = [
      { id: "g0002", parent: "g0000", relation: "sibling", summary: `offline: ${moves[0]}; no draft beat the parent (0.4200), submitted the best: 0.3000 (1 drafts on 2 visible instances) | drafts: ${moves[1]} = 0.3000`, outcome: { kind: "valid", score: 0.3, delta: -0.12 } },
      { id: "g0003", parent: "g0000", relation: "sibling", summary: `offline: ${moves[2]}`, outcome: { kind: "invalid", stage: "policy", code: "empty_diff" } },
      // A cousin's move is not this parent's: it may be tried again.
      { id: "g0004", parent: "g0001", relation: "cousin", summary: "offline: params.iterations 400→401 (task/fixture.ts)", outcome: { kind: "valid", score: 0.5, delta: 0 } },
    ];
    const after = await improveWith(8, [evaluated(0.3), evaluated(0.3), evaluated(0.3)], 3, attempts);
    expect(after.drafts).toHaveLength(3);
    for (const d of after.drafts) expect(tried).not.toContain(d.iterations);
    // The same request and scores give the same drafts again.
    const again = await improveWith(8, [evaluated(0.3), evaluated(0.3), evaluated(0.3)], 3, attempts);
    expect(again.drafts.map((d) => d.iterations)).toEqual(after.drafts.map((d) => d.iterations));
  });

  it("leaves the type-check of its drafts to the harness: a move that breaks the compile is drafted, answered invalid, and not kept", async () => {
    // The fixture's only task knob can only move to a value its declared type forbids; the
    // offline strategy without ctx.evaluate would not make that move (meta-offline.test.ts).
    const fixture = 'type Mode = "a" | "b";\nexport const params: { mode: Mode } = {\n  mode: "a", // evolve:choices "a" | "oops"\n};\n';
    const modes: (string | undefined)[] = [];
    const { report, after } = await improveFixture("typed", fixture, improveRequest("fixture", 4, [], 3), (draft) => {
      modes.push(/mode: "(\w+)"/.exec(draft.get("task/fixture.ts") ?? "")?.[1]);
      return invalid(2);
    });
    expect(modes[0]).toBe("oops");
    expect(after.get("task/fixture.ts")).toBe(fixture);
    expect(report.summary).toContain('params.mode "a"→"oops" (task/fixture.ts) = compile type_error');
  });

  it("from a kept draft's tree, never drafts the move that undoes it (the parent's tree again)", async () => {
    const fixture = "export const params = {\n  strict: false, // evolve:flag\n};\n";
    const request = { ...(improveRequest("fixture", 4, [], 3) as ImproveRequest), attempts: [] } as unknown as ReturnType<typeof improveRequest>;
    const trees: ReadonlyMap<string, string>[] = [];
    const { report, parent } = await improveFixture("flag", fixture, request, (draft) => {
      trees.push(draft);
      return evaluated(trees.length === 1 ? 0.9 : 0.5)(3 - trees.length);
    });
    // Draft 1 flips the only task knob and wins; flipping it back would only evaluate the parent again.
    expect(trees[0]?.get("task/fixture.ts")).toContain("strict: true,");
    for (const drafted of trees) expect(drafted).not.toEqual(parent);
    for (const drafted of trees.slice(1)) expect(drafted.get("task/fixture.ts")).toContain("strict: true,");
    expect(report.summary).toMatch(/^offline: params\.strict false→true \(task\/fixture\.ts\); inner loop kept it/);
  });

  it("stops at a refusal and keeps what it had", async () => {
    const { report, after, drafts } = await improveWith(7, [evaluated(0.6)], 3);
    expect(drafts).toHaveLength(2);
    expect(after.get("task/fixture.ts")).toContain(`iterations: ${drafts[0]?.iterations}, // evolve:range`);
    expect(report.summary).toMatch(/inner loop kept it: 0\.4200 -> 0\.6000 \(1 drafts on 2 visible instances; evaluate refused: no evaluations left\) \| drafts: params\.iterations 400→\d+ \(task\/fixture\.ts\) = 0\.6000$/);
  });
});
