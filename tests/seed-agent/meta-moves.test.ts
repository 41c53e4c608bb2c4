/**
 * The offline search spends no draft on a move that cannot win: it never undoes a flag or
 * choice move that raised the score, never searches another task's solver or its own search
 * parameters alone, and reads the parent's own unkept drafts as tried. The seed's own code
 * (this repository's, not a model's) is run on the host here, as knob-moves-compile.test.ts does.
 */
import { describe, expect, it } from "vitest";
import type { ImproveRequest, LineageStep } from "@evolve/contract";
import { readOwnTree } from "../../harness/src/archive/index.js";
import { openKnobSearch } from "../../seed-agent/meta/knob-search.js";
import type { Knob } from "../../seed-agent/meta/knobs.js";
import { hintFor, mutate, parseMoves, type Move } from "../../seed-agent/meta/moves.js";
import { moveKey, triedFromParent } from "../../seed-agent/meta/tried.js";
import { SEED_DIR } from "./agent-tree.js";
import { searchRequest, treeContext } from "./improve-request.js";

const STEPS = { stepScale: 0.1, momentum: 1.5, retreat: 0.5 };
const seedTree = readOwnTree(SEED_DIR);

function knob(spec: Knob["spec"], text: string): Knob {
  return { file: "task/x.ts", name: "params.k", spec, text, start: 0, end: text.length };
}

/** Proposals from `tree` for `task` (each from the same tree), on a fixed random stream. */
async function proposals(task: string, count: number, lineage: LineageStep[] = [], edit: (tree: Map<string, string>) => void = () => undefined): Promise<Move[][]> {
  const tree = new Map(await seedTree);
  edit(tree);
  const knobs = await openKnobSearch(searchRequest(task, lineage), treeContext(tree, 11), { typeCheck: false });
  const out: Move[][] = [];
  for (let i = 0; i < count; i++) {
    knobs.restore(knobs.originals);
    out.push(knobs.propose());
  }
  return out;
}

describe("the offline search's moves", () => {
  it("never moves a flag or a two-way choice back after a move that raised the score; goes back after one that lowered it", () => {
    const random = (): number => 0.3;
    const flag = knob({ kind: "flag" }, "true");
    const choice = knob({ kind: "choices", options: ['"loose"', '"atext"'] }, '"atext"');
    const raised = (from: string, to: string) => hintFor({ move: { file: "task/x.ts", name: "params.k", from, to }, delta: 0.1 }, STEPS);
    const lowered = (from: string, to: string) => hintFor({ move: { file: "task/x.ts", name: "params.k", from, to }, delta: -0.1 }, STEPS);
    expect(mutate(flag, raised("false", "true"), STEPS, random)).toBeNull();
    expect(mutate(choice, raised('"loose"', '"atext"'), STEPS, random)).toBeNull();
    expect(mutate(flag, lowered("false", "true"), STEPS, random)).toBe("false");
    expect(mutate(choice, lowered('"loose"', '"atext"'), STEPS, random)).toBe('"loose"');
    // A three-way choice that helped may still move on, to the value it never had.
    const three = knob({ kind: "choices", options: ['"grid"', '"random"', '"hex"'] }, '"hex"');
    for (const r of [0, 0.5, 0.99]) expect(mutate(three, raised('"grid"', '"hex"'), STEPS, () => r)).toBe('"random"');
  });

  it("never flips back, in a whole proposal, a flag the lineage moved with a gain", async () => {
    const lineage: LineageStep[] = [
      { id: "g0000", score: 0.78, summary: "seed" },
      { id: "g0001", score: 0.88, summary: "offline: params.checkLabels false→true (task/email-validation.ts)" },
      // A later step, so the undo of checkLabels is not the parent's own single move (tried.ts).
      { id: "g0002", score: 0.9, summary: "offline: params.asciiOnly false→true (task/email-validation.ts)" },
    ];
    const moves = (await proposals("email-validation", 60, lineage, (tree) => {
      const path = "task/email-validation.ts";
      tree.set(path, (tree.get(path) ?? "").replace("checkLabels: false,", "checkLabels: true,").replace("asciiOnly: false,", "asciiOnly: true,"));
    })).flat();
    expect(moves.length).toBeGreaterThanOrEqual(60);
    expect(moves.filter((m) => m.name === "params.checkLabels" || m.name === "params.asciiOnly")).toEqual([]);
  });

  it.each(["circle-packing", "email-validation", "snake"])("moves the solver of %s in every proposal, and never another task's solver", async (task) => {
    const all = await proposals(task, 60);
    for (const moves of all) {
      expect(moves.some((m) => m.file === `task/${task}.ts`)).toBe(true);
      expect(moves.filter((m) => m.file.startsWith("task/") && m.file !== `task/${task}.ts`)).toEqual([]);
    }
    // Our own search parameters still come as the extra self-edit.
    expect(all.some((moves) => moves.some((m) => m.file === "meta/search-params.ts"))).toBe(true);
  }, 60_000);

  it("reads the drafts its ancestors did not keep as tried, when the request lists attempts", () => {
    const kept = "params.checkLabels false→true (task/email-validation.ts)";
    const drafts = ["params.asciiOnly false→true (task/email-validation.ts)", "params.maxLength 320→290 (task/email-validation.ts)"];
    const parent = { id: "g0003", score: 0.9, summary: `offline: ${kept}; inner loop kept it: 0.8 -> 0.9 (3 drafts) | drafts: ${drafts[0]} = 0.8000; ${kept} = 0.9000; ${drafts[1]} = 0.9000` };
    const request = (attempts: unknown) => ({ lineage: [{ id: "g0000", score: 0.8, summary: "seed" }, parent], attempts }) as unknown as ImproveRequest;
    const tried = triedFromParent(request([]));
    for (const move of drafts.flatMap((d) => parseMoves(d))) expect(tried.has(moveKey(move))).toBe(true);
    // The undo of the parent's single kept move is tried too; a move never drafted is not.
    expect(tried.has(moveKey({ file: "task/email-validation.ts", name: "params.checkLabels", to: "false" }))).toBe(true);
    expect(tried.has(moveKey({ file: "task/email-validation.ts", name: "params.allowQuoted", to: "true" }))).toBe(false);
    // An older ancestor's unkept drafts too, within the lineage's memory.
    const grandchild = { lineage: [{ id: "g0000", score: 0.8, summary: "seed" }, parent, { id: "g0007", score: 0.95, summary: "offline: params.allowQuoted false→true (task/email-validation.ts)" }], attempts: [] } as unknown as ImproveRequest;
    expect(triedFromParent(grandchild).has(moveKey(parseMoves(drafts[0]!)[0]!))).toBe(true);
    expect(triedFromParent(grandchild, 1).has(moveKey(parseMoves(drafts[0]!)[0]!))).toBe(false);
    // A run without attempts (--attempts 0) searches as before them.
    expect(triedFromParent(request(undefined)).size).toBe(0);
  });
});
