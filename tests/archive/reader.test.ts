import { mkdir, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ArchiveWriter,
  formatGenerationId,
  listRuns,
  readGeneration,
  readRun,
} from "../../harness/src/archive/index.js";
import { tempDir } from "./fixtures.js";
import { generationRecord, runRecord } from "../support/records.js";

const NO_FILES = { snapshotDir: null, patch: "", transcript: [], logs: {} } as const;

async function runWith(n: number, root?: string, id = "r1"): Promise<string> {
  const dir = root ?? (await tempDir());
  const writer = await ArchiveWriter.create(dir, runRecord({ id }));
  for (let i = 0; i < n; i++) {
    const gid = writer.allocateGenerationId();
    await writer.recordGeneration(generationRecord({ id: gid, parent: i === 0 ? null : "g0000", depth: i === 0 ? 0 : 1 }), NO_FILES);
  }
  return join(dir, id);
}

describe("reading a run", () => {
  it("reports a record larger than any the harness writes without reading it", async () => {
    const runDir = await runWith(2);
    await truncate(join(runDir, "g0001", "generation.json"), 65 * 1024 * 1024); // sparse
    const contents = await readRun(runDir);
    expect(contents.generations.map((g) => g.id)).toEqual(["g0000"]);
    expect(contents.problems.map((p) => p.reason).join("\n")).toMatch(/68157440 bytes, more than any record the harness writes/);
  });

  it("reads a record past the small-file buffer whole, and refuses a device that never ends", async () => {
    const runDir = await runWith(3);
    const big = JSON.stringify(generationRecord({ id: "g0001", parent: "g0000", depth: 1 })) + " ".repeat(3 * 1024 * 1024);
    await writeFile(join(runDir, "g0001", "generation.json"), big);
    await rm(join(runDir, "g0002", "generation.json"));
    await symlink("/dev/zero", join(runDir, "g0002", "generation.json"));
    const contents = await readRun(runDir);
    expect(contents.generations.map((g) => g.id)).toEqual(["g0000", "g0001"]);
    expect(contents.problems).toEqual([{ path: join(runDir, "g0002", "generation.json"), reason: "not a regular file" }]);
  });

  it("reports a corrupt, a truncated, a schema-violating and a misplaced record by path, and reads the rest", async () => {
    const runDir = await runWith(6);
    const path = (id: string): string => join(runDir, id, "generation.json");
    await writeFile(path("g0001"), "{ not json");
    const full = JSON.stringify(generationRecord({ id: "g0002", parent: "g0000", depth: 1 }), null, 2);
    await writeFile(path("g0002"), full.slice(0, full.length / 2));
    await writeFile(path("g0003"), JSON.stringify({ ...generationRecord({ id: "g0003" }), depth: "deep" }));
    await writeFile(path("g0004"), JSON.stringify(generationRecord({ id: "g0009" })));
    await mkdir(join(runDir, "g0010"));
    const { run, generations, problems } = await readRun(runDir);
    expect(run?.id).toBe("r1");
    expect(generations.map((g) => g.id)).toEqual(["g0000", "g0005"]);
    const byPath = new Map(problems.map((p) => [p.path, p.reason]));
    expect(byPath.get(path("g0001"))).toMatch(/^invalid JSON/);
    expect(byPath.get(path("g0002"))).toMatch(/^invalid JSON/);
    expect(byPath.get(path("g0003"))).toMatch(/^schema: depth:/);
    expect(byPath.get(path("g0004"))).toBe("record id g0009 in folder g0004");
    expect(byPath.get(path("g0010"))).toBe("missing file");
    expect(problems).toHaveLength(5);
  });

  it("reads generations even when run.json is corrupt, reporting it", async () => {
    const runDir = await runWith(2);
    await writeFile(join(runDir, "run.json"), "");
    const { run, generations, problems } = await readRun(runDir);
    expect(run).toBeNull();
    expect(generations).toHaveLength(2);
    expect(problems).toEqual([{ path: join(runDir, "run.json"), reason: "empty file" }]);
  });

  it("orders ids numerically past g9999", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    for (const n of [10000, 9999, 2]) await writer.recordGeneration(generationRecord({ id: formatGenerationId(n) }), NO_FILES);
    expect((await readRun(join(root, "r1"))).generations.map((g) => g.id)).toEqual(["g0002", "g9999", "g10000"]);
  });

  it("gives named errors for an unknown run, an unknown generation and a corrupt one", async () => {
    const runDir = await runWith(2);
    await expect(readRun(join(runDir, "..", "missing"))).rejects.toMatchObject({ code: "unknown_run" });
    await expect(readGeneration(runDir, "g0042")).rejects.toMatchObject({ code: "unknown_generation" });
    await expect(readGeneration(runDir, "../r1")).rejects.toMatchObject({ code: "unknown_generation" });
    await writeFile(join(runDir, "g0001", "generation.json"), "[]");
    await expect(readGeneration(runDir, "g0001")).rejects.toMatchObject({ code: "archive_corrupt" });
    expect((await readGeneration(runDir, "g0000")).id).toBe("g0000");
  });

  it("reads 1,000 generations in well under two seconds", async () => {
    const root = await tempDir();
    const runDir = join(root, "big");
    await ArchiveWriter.create(root, runRecord({ id: "big" }));
    // Written directly (not through the writer) to keep the set-up cheap.
    const text = (i: number): string =>
      JSON.stringify(generationRecord({ id: formatGenerationId(i), parent: i === 0 ? null : formatGenerationId(Math.floor(i / 2)), depth: 0 }), null, 2);
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, k) => {
          const dir = join(runDir, formatGenerationId(i + k));
          await mkdir(dir);
          await writeFile(join(dir, "generation.json"), text(i + k));
        }),
      );
    }
    const started = performance.now();
    const { generations, problems } = await readRun(runDir);
    const elapsed = performance.now() - started;
    expect(problems).toEqual([]);
    expect(generations).toHaveLength(1000);
    console.log(`read 1000 generations in ${elapsed.toFixed(0)} ms`);
    expect(elapsed).toBeLessThan(1500);
  });
});

describe("listing runs", () => {
  it("lists readable runs and reports a folder without a readable run.json", async () => {
    const root = await tempDir();
    await runWith(3, root, "a");
    await runWith(1, root, "b");
    await mkdir(join(root, "stray"));
    await mkdir(join(root, ".hidden"));
    const { runs, problems } = await listRuns(root);
    expect(runs.map((r) => [r.id, r.generationCount]).sort()).toEqual([
      ["a", 3],
      ["b", 1],
    ]);
    expect(problems).toEqual([{ path: join(root, "stray", "run.json"), reason: "missing file" }]);
  });

  it("treats a missing archive root as empty", async () => {
    expect(await listRuns(join(await tempDir(), "none"))).toEqual({ runs: [], problems: [] });
  });
});
