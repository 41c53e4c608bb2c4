import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ArchiveWriter,
  checkLineage,
  childrenCounts,
  childrenOf,
  depthOf,
  diffTrees,
  generationPaths,
  lineageOf,
  readRun,
  rebuildSnapshot,
  snapshotHash,
  writeTree,
} from "../../harness/src/archive/index.js";
import { createRng } from "../../harness/src/selection/index.js";
import { mutateTree, randomTree, tempDir } from "./fixtures.js";
import { generationRecord, runRecord } from "../support/records.js";

const NODES = [
  { id: "g0000", parent: null, depth: 0 },
  { id: "g0001", parent: "g0000", depth: 1 },
  { id: "g0002", parent: "g0000", depth: 1 },
  { id: "g0003", parent: "g0001", depth: 2 },
  { id: "g0004", parent: "g0003", depth: 3 },
];

describe("lineage helpers", () => {
  it("walks from the root, counts children and depth", () => {
    expect(lineageOf(NODES, "g0004")).toEqual(["g0000", "g0001", "g0003", "g0004"]);
    expect(lineageOf(NODES, "g0000")).toEqual(["g0000"]);
    expect(depthOf(NODES, "g0004")).toBe(3);
    expect(Object.fromEntries(childrenCounts(NODES))).toEqual({ g0000: 2, g0001: 1, g0002: 0, g0003: 1, g0004: 0 });
    expect(childrenOf(NODES, "g0000")).toEqual(["g0001", "g0002"]);
    expect(checkLineage(NODES)).toEqual([]);
  });

  it("reports missing parents, cycles, wrong depths and extra roots", () => {
    expect(() => lineageOf(NODES, "g0042")).toThrow(/no generation/);
    const broken = [
      ...NODES.slice(0, 4),
      { id: "g0004", parent: "g0009", depth: 3 },
      { id: "g0005", parent: "g0006", depth: 1 },
      { id: "g0006", parent: "g0005", depth: 1 },
      { id: "g0007", parent: "g0001", depth: 5 },
      { id: "g0008", parent: null, depth: 0 },
    ];
    const reasons = checkLineage(broken).map((p) => `${p.path} ${p.reason}`);
    expect(reasons).toEqual([
      " expected one root, found 2",
      "g0004 the lineage of g0004 names a missing parent g0009",
      "g0005 the lineage of g0005 has a cycle through g0005",
      "g0006 the lineage of g0006 has a cycle through g0006",
      "g0007 recorded depth 5, actual 2",
    ]);
  });
});

describe("rebuilding a lineage from the root", () => {
  /** A run whose chain g0000 → g0001 → g0002 → g0003 holds random trees, plus a side branch. */
  async function chainRun(): Promise<{ runDir: string; trees: Map<string, string>[] }> {
    const rng = createRng(77);
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r" }));
    const trees = [randomTree(rng, 6)];
    for (let i = 0; i < 3; i++) trees.push(mutateTree(rng, trees[i] ?? new Map()));
    for (const [i, tree] of trees.entries()) {
      const snap = await tempDir("evolve-snap-");
      await writeTree(snap, tree);
      const parentTree = i === 0 ? new Map<string, string>() : (trees[i - 1] ?? new Map());
      const id = writer.allocateGenerationId();
      await writer.recordGeneration(
        generationRecord({ id, parent: i === 0 ? null : `g000${i - 1}`, depth: i, snapshotHash: snapshotHash(tree) }),
        { snapshotDir: snap, patch: diffTrees(parentTree, tree).patch, transcript: [], logs: {} },
      );
    }
    await writer.recordGeneration(generationRecord({ id: writer.allocateGenerationId(), parent: "g0001", depth: 2 }), {
      snapshotDir: null,
      patch: "",
      transcript: [],
      logs: {},
    });
    return { runDir: join(root, "r"), trees };
  }

  it("reproduces every snapshot on the path", async () => {
    const { runDir, trees } = await chainRun();
    const { generations } = await readRun(runDir);
    expect(checkLineage(generations)).toEqual([]);
    const result = await rebuildSnapshot(runDir, generations, "g0003");
    expect(result.ok && new Map([...result.tree].sort())).toEqual(new Map([...(trees[3] ?? [])].sort()));
    expect(result.lineage).toEqual(["g0000", "g0001", "g0002", "g0003"]);
  });

  it("names the generation whose stored patch was tampered with", async () => {
    const { runDir } = await chainRun();
    const { generations } = await readRun(runDir);
    const patchPath = generationPaths(runDir, "g0002").patch;
    const patch = await readFile(patchPath, "utf8");
    // Flip one added line (not the "+++ b/path" header): the patch still applies, but the
    // tree's hash no longer matches the one recorded for g0002.
    const tampered = patch.replace(/^\+(?!\+\+ )(.*)$/m, "+$1 // evil");
    expect(tampered).not.toBe(patch);
    await writeFile(patchPath, tampered);
    const result = await rebuildSnapshot(runDir, generations, "g0003");
    expect(result).toMatchObject({ ok: false, generation: "g0002" });
    expect(result.ok ? "" : result.reason).toMatch(/^rebuilt tree hash [0-9a-f]{64} differs from the recorded [0-9a-f]{64}$/);
  });

  it("names the generation whose snapshot folder was tampered with", async () => {
    const { runDir, trees } = await chainRun();
    const { generations } = await readRun(runDir);
    const [first] = [...(trees[1] ?? new Map()).keys()];
    const target = first ?? "extra.ts";
    await writeFile(join(generationPaths(runDir, "g0001").snapshot, target), "tampered\n");
    const result = await rebuildSnapshot(runDir, generations, "g0003");
    expect(result).toMatchObject({ ok: false, generation: "g0001" });
    expect(!result.ok && result.reason).toMatch(/^snapshot\/ hash/);
  });
});
