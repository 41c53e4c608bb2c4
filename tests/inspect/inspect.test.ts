/** The inspect commands against a synthetic archive written through the real ArchiveWriter. */
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPatch, generationPaths, readPatch, readOwnTree } from "../../harness/src/archive/index.js";
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import type { SyntheticRun } from "../report/synthetic-archive.js";
import { HOSTILE_SUMMARY, writeSyntheticRun } from "../report/synthetic-archive.js";
import { evolve } from "./cli-harness.js";

let synth: SyntheticRun;
let best: GenerationRecord;

/** Independent of the code under test: the valid record with the highest visible score, earliest on ties. */
function expectedBest(records: readonly GenerationRecord[]): GenerationRecord {
  const valid = records.filter((r) => r.status.kind === "valid" && r.scores.visible !== null);
  return valid.reduce((a, b) => ((b.scores.visible ?? 0) > (a.scores.visible ?? 0) ? b : a));
}

function chainOf(records: readonly GenerationRecord[], id: string): string[] {
  const chain: string[] = [];
  for (let at: string | null = id; at !== null; at = records.find((r) => r.id === at)?.parent ?? null) chain.unshift(at);
  return chain;
}

beforeAll(async () => {
  synth = await writeSyntheticRun({ generations: 24, seed: 5, runId: "inspect-run" });
  best = expectedBest(synth.records);
});
afterAll(async () => synth?.cleanup());

describe("evolve ls", () => {
  it("lists the run with its task, generation count, best generation and status", async () => {
    const r = await evolve("ls", "--out", synth.root);
    expect(r.code).toBe(0);
    const line = r.stdout.split("\n").find((l) => l.startsWith("inspect-run"));
    expect(line).toBeDefined();
    expect(line).toContain("circle-packing");
    expect(line).toContain(` ${synth.records.length} `);
    expect(line).toContain(best.id);
    expect(line).toContain("finished");
    const json = JSON.parse((await evolve("ls", "--out", synth.root, "--json")).stdout);
    expect(json.runs[0]).toMatchObject({ id: "inspect-run", generations: 24, best: { id: best.id, visible: best.scores.visible } });
  });

  it("says so when the root holds no runs", async () => {
    const r = await evolve("ls", "--out", join(synth.root, "nothing-here"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no runs/);
  });
});

describe("evolve tree", () => {
  it("prints every generation once with its scores, invalid stage and the best marked", async () => {
    const r = await evolve("tree", "inspect-run", "--out", synth.root);
    expect(r.code).toBe(0);
    for (const g of synth.records) {
      const lines = r.stdout.split("\n").filter((l) => l.includes(`${g.id}  `));
      expect(lines, g.id).toHaveLength(1);
      if (g.status.kind === "invalid") expect(lines[0]).toContain(`INVALID ${g.status.stage}`);
    }
    expect(r.stdout.split("\n").find((l) => l.includes("★ best"))).toContain(best.id);
    expect(r.stdout).not.toContain("\u001b["); // not a terminal: no colour codes
  });

  it("--json gives the nodes and the best path from the root", async () => {
    const json = JSON.parse((await evolve("tree", synth.runDir, "--json")).stdout);
    expect(json.nodes).toHaveLength(synth.records.length);
    expect(json.bestPath).toEqual(chainOf(synth.records, best.id));
  });
});

describe("evolve show", () => {
  it("describes a valid generation: parent, lineage, scores and timings", async () => {
    const r = await evolve("show", "inspect-run", best.id, "--out", synth.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`parent    ${best.parent ?? "none (root)"}`);
    expect(r.stdout).toContain(chainOf(synth.records, best.id).join(" → "));
    expect(r.stdout).toContain((best.scores.visible ?? 0).toFixed(4));
    expect(r.stdout).toContain("timings");
  });

  it("describes an invalid generation's stage and reason, and accepts 'best' and plain numbers", async () => {
    const invalid = synth.records.find((g) => g.status.kind === "invalid");
    expect(invalid).toBeDefined();
    const r = await evolve("show", synth.runDir, String(Number(invalid!.id.slice(1))));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`failed at ${invalid!.status.kind === "invalid" ? invalid!.status.stage : ""}`);
    expect((await evolve("show", synth.runDir, "best", "--json")).stdout).toContain(`"id": "${best.id}"`);
  });

  it("shows agent-written text as text, on one line", async () => {
    const hostile = synth.records.find((g) => g.summary === HOSTILE_SUMMARY)!;
    const r = await evolve("show", synth.runDir, hostile.id);
    expect(r.stdout).toContain(`summary   ${HOSTILE_SUMMARY}`);
  });
});

describe("evolve diff", () => {
  it("against the parent equals the stored patch", async () => {
    const child = synth.records.find((g) => g.parent !== null && g.snapshotHash !== null)!;
    const r = await evolve("diff", synth.runDir, child.id);
    expect(r.code).toBe(0);
    expect(`${r.stdout}\n`).toBe(await readPatch(synth.runDir, child.id));
  });

  it("between two generations applies to the first to give the second", async () => {
    const [a, b] = synth.records.filter((g) => g.snapshotHash !== null).slice(-2) as [GenerationRecord, GenerationRecord];
    const r = await evolve("diff", synth.runDir, a.id, b.id);
    expect(r.code).toBe(0);
    const applied = applyPatch(await readOwnTree(generationPaths(synth.runDir, a.id).snapshot), `${r.stdout}\n`);
    expect(applied.ok).toBe(true);
    if (applied.ok) expect(applied.tree).toEqual(await readOwnTree(generationPaths(synth.runDir, b.id).snapshot));
  });
});

describe("evolve lineage", () => {
  it("lists the chain from the seed with score deltas", async () => {
    const r = await evolve("lineage", synth.runDir, best.id, "--json");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    const chain = chainOf(synth.records, best.id);
    expect(json.lineage.map((s: { id: string }) => s.id)).toEqual(chain);
    for (let i = 1; i < chain.length; i++) {
      const [prev, cur] = [synth.records.find((g) => g.id === chain[i - 1])!, synth.records.find((g) => g.id === chain[i])!];
      expect(json.lineage[i].deltaVisible).toBeCloseTo((cur.scores.visible ?? 0) - (prev.scores.visible ?? 0), 10);
    }
    const text = await evolve("lineage", synth.runDir, best.id);
    expect(text.stdout.split("\n")).toHaveLength(chain.length + 1);
  });
});

describe("evolve cat", () => {
  it("prints a snapshot file", async () => {
    const r = await evolve("cat", synth.runDir, best.id, "task/index.ts");
    expect(r.code).toBe(0);
    expect(`${r.stdout}\n`).toBe(await readFile(join(generationPaths(synth.runDir, best.id).snapshot, "task/index.ts"), "utf8"));
  });

  it("takes every generation form the other commands take: best, latest, a number", async () => {
    const file = async (id: string) => readFile(join(generationPaths(synth.runDir, id).snapshot, "meta/index.ts"), "utf8");
    const bestFile = await evolve("cat", synth.runDir, "best", "meta/index.ts");
    expect(bestFile.code, bestFile.stderr).toBe(0);
    expect(`${bestFile.stdout}\n`).toBe(await file(best.id));
    const latest = synth.records.at(-1)!;
    const latestFile = await evolve("cat", synth.runDir, "latest", "meta/index.ts");
    if (latest.snapshotHash === null) expect(latestFile.stderr).toContain(`${latest.id} has no snapshot`);
    else expect(`${latestFile.stdout}\n`).toBe(await file(latest.id));
    const numbered = await evolve("cat", synth.runDir, String(Number(best.id.slice(1))), "meta/index.ts");
    expect(numbered.stdout).toBe(bestFile.stdout);
  });

  it("refuses paths outside the agent tree and names missing files", async () => {
    const up = await evolve("cat", synth.runDir, best.id, "../generation.json");
    expect(up.code).not.toBe(0);
    expect(up.stderr).toMatch(/not a path inside the agent tree/);
    const missing = await evolve("cat", synth.runDir, best.id, "task/nope.ts");
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.split("\n")[0]).toMatch(/has no file task\/nope\.ts/);
  });
});

describe("errors", () => {
  it("an unknown run or generation is one clear line and a non-zero exit", async () => {
    const run = await evolve("tree", "no-such-run", "--out", synth.root);
    expect(run.code).not.toBe(0);
    expect(run.stderr.split("\n")[0]).toMatch(/no run "no-such-run" \(looked for run.json in /);
    const gen = await evolve("show", synth.runDir, "g9999");
    expect(gen.code).not.toBe(0);
    expect(gen.stderr).toMatch(/^evolve show: no generation g9999/);
    const bad = await evolve("show", synth.runDir, "nonsense");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.split("\n")).toHaveLength(1);
  });

  it("a corrupt record fails the command that names it and is a warning elsewhere", async () => {
    const copy = join(synth.root, "corrupt-copy");
    await cp(synth.runDir, copy, { recursive: true });
    const victim = synth.records.at(-1)!;
    await writeFile(generationPaths(copy, victim.id).record, '{"schemaVersion": 1, "id": ');
    try {
      const show = await evolve("show", copy, victim.id);
      expect(show.code).not.toBe(0);
      expect(show.stderr).toMatch(/generation\.json: invalid JSON/);
      const tree = await evolve("tree", copy, "--json");
      expect(tree.code).toBe(0);
      expect(JSON.parse(tree.stdout).nodes).toHaveLength(synth.records.length - 1);
      expect(tree.stderr).toMatch(new RegExp(`warning: .*${victim.id}/generation\\.json`));
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

describe("evolve report", () => {
  it("writes report.html into the run folder", async () => {
    const r = await evolve("report", "inspect-run", "--out", synth.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(join(synth.runDir, "report.html"));
    expect(await readFile(r.stdout, "utf8")).toMatch(/^<!doctype html>/);
  });
});
