/**
 * Why the offline inner loop leaves the type-check of its drafts to the harness
 * (seed-agent/meta/offline.ts): on the seed's own tree, the in-container check never changes a
 * proposal. Proposals with the check and without it, from the same random stream, must be the
 * same for every built-in task: a move the check would have refused would make them part.
 * The seed's own code (this repository's, not a model's) is run on the host here, as the
 * offline bench does.
 */
import { describe, expect, it } from "vitest";
import { readOwnTree } from "../../harness/src/archive/index.js";
import { openKnobSearch } from "../../seed-agent/meta/knob-search.js";
import { SEED_DIR } from "./agent-tree.js";
import { searchRequest, treeContext } from "./improve-request.js";

const PROPOSALS = 25;
const seedTree = readOwnTree(SEED_DIR);

/** The first PROPOSALS proposals from the seed's tree for `task`, each from the parent's tree. */
async function proposals(task: string, typeCheck: boolean): Promise<string[]> {
  const tree = await seedTree;
  const knobs = await openKnobSearch(searchRequest(task), treeContext(tree, 7), { typeCheck });
  expect(knobs.checking).toBe(typeCheck);
  const out: string[] = [];
  for (let i = 0; i < PROPOSALS; i++) {
    knobs.restore(knobs.originals);
    out.push(JSON.stringify(knobs.propose()));
  }
  return out;
}

describe("the seed's knob moves on its own tree", () => {
  it.each(["circle-packing", "email-validation", "snake", "ts-exercises"])("never add a type error (%s): the in-container check changes no proposal", async (task) => {
    const checked = await proposals(task, true);
    expect(new Set(checked).size).toBeGreaterThan(PROPOSALS / 2);
    expect(await proposals(task, false)).toEqual(checked);
  }, 120_000);
});
