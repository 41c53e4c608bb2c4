/**
 * run.json version 3: strict, complete limits, and version-1 and -2 archives (tests/fixtures/
 * archive-v1, written by the harness of 2026-11-22; a version-2 record as the harness wrote
 * it before ctx.evaluate) still read, with the limits their harness used filled in.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ArchiveWriter, readRun, readRunRecord, RUN_SCHEMA_VERSION } from "../../harness/src/archive/index.js";
import { runRecord } from "../support/records.js";
import { tempDir } from "./fixtures.js";

const V1_RUN = new URL("../fixtures/archive-v1/run-v1/", import.meta.url).pathname;

async function runJsonWith(edit: (limits: Record<string, unknown>) => void): Promise<string> {
  const dir = await tempDir();
  const record = JSON.parse(JSON.stringify(runRecord())) as { config: { limits: Record<string, unknown> } };
  edit(record.config.limits);
  await writeFile(join(dir, "run.json"), JSON.stringify(record));
  return dir;
}

/** A run.json as a version-2 harness wrote it: no `evaluations` limit. */
async function versionTwoRunJson(): Promise<string> {
  const dir = await tempDir();
  const record = JSON.parse(JSON.stringify(runRecord())) as { schemaVersion: number; config: { limits: Record<string, unknown> } };
  record.schemaVersion = 2;
  delete record.config.limits["evaluations"];
  await writeFile(join(dir, "run.json"), JSON.stringify(record));
  return dir;
}

describe("run.json version 3", () => {
  it("reads a version-1 record with the limits its harness used where it recorded none", async () => {
    const read = await readRunRecord(V1_RUN);
    expect(read.ok ? read.value : read.problem).toMatchObject({
      schemaVersion: RUN_SCHEMA_VERSION,
      id: "run-20261123-192518-61e3",
      status: "finished",
      config: {
        limits: {
          budgetTokens: null,
          budgetUsd: null,
          generationTokens: null,
          improveTimeoutMs: 180_000,
          importTimeoutMs: 10_000, // recorded as null: "the default", 10 s in version 1
          checkMemoryMb: 1024,
          checkTimeoutMs: 30_000,
          evaluations: 0, // no harness of version 1 evaluated drafts
        },
      },
    });
    const contents = await readRun(V1_RUN);
    expect(contents.problems).toEqual([]);
    expect(contents.generations.map((g) => g.id)).toEqual(["g0000", "g0001"]);
  });

  it("reads a version-2 record as one whose meta agents could not evaluate drafts", async () => {
    const read = await readRunRecord(await versionTwoRunJson());
    expect(read.ok ? read.value : read.problem).toMatchObject({ schemaVersion: RUN_SCHEMA_VERSION, config: { limits: { evaluations: 0, checkTimeoutMs: 30_000 } } });
  });

  it("still refuses a version-2 record with a misspelt limit", async () => {
    const dir = await versionTwoRunJson();
    const path = join(dir, "run.json");
    await writeFile(path, (await readFile(path, "utf8")).replace('"checkTimeoutMs"', '"checkTimeoutMz"'));
    const read = await readRunRecord(dir);
    expect(read.ok ? "" : read.problem.reason).toMatch(/checkTimeoutMz/);
  });

  it("refuses a current record without its evaluations", async () => {
    const read = await readRunRecord(await runJsonWith((limits) => delete limits["evaluations"]));
    expect(read.ok ? "" : read.problem.reason).toMatch(/evaluations/);
  });

  it("writes a reopened version-1 run back as the current version", async () => {
    const dir = join(await tempDir(), "run-v1");
    await cp(V1_RUN, dir, { recursive: true });
    const writer = await ArchiveWriter.open(dir);
    await writer.updateRun((r) => r);
    const onDisk = JSON.parse(await readFile(join(dir, "run.json"), "utf8")) as { schemaVersion: number; config: { limits: object } };
    expect(onDisk.schemaVersion).toBe(RUN_SCHEMA_VERSION);
    expect(Object.keys(onDisk.config.limits).sort()).toEqual(
      ["budgetTokens", "budgetUsd", "checkMemoryMb", "checkTimeoutMs", "evaluations", "generationTokens", "importTimeoutMs", "improveTimeoutMs"],
    );
  });

  it("reads a version-3 record as a plain run and refuses a misspelt arena setting by name", async () => {
    const v3 = await runJsonWith(() => undefined);
    const path = join(v3, "run.json");
    const record = JSON.parse(await readFile(path, "utf8")) as { schemaVersion: number; config: Record<string, unknown> };
    await writeFile(path, JSON.stringify({ ...record, schemaVersion: 3 }));
    const read = await readRunRecord(v3);
    expect(read.ok ? read.value.config.arena : read.problem).toBeUndefined();
    expect(read.ok && read.value.schemaVersion).toBe(RUN_SCHEMA_VERSION);
    const arena = { mode: "duel", rounds: 3, codePopulation: 1, testPopulation: 1, tournamentEvery: 1, suiteCap: 8 };
    await writeFile(path, JSON.stringify({ ...record, config: { ...record.config, arena: { ...arena, suiteCapp: 9 } } }));
    const misspelt = await readRunRecord(v3);
    expect(misspelt.ok ? "" : misspelt.problem.reason).toMatch(/suiteCapp/);
    await writeFile(path, JSON.stringify({ ...record, config: { ...record.config, arena } }));
    const arenaRun = await readRunRecord(v3);
    expect(arenaRun.ok ? arenaRun.value.config.arena : arenaRun.problem).toEqual(arena);
  });

  it("refuses a misspelt limit by name, rather than reading the real one as unlimited", async () => {
    const dir = await runJsonWith((limits) => {
      limits["budgetTokenz"] = limits["budgetTokens"];
      delete limits["budgetTokens"];
    });
    const read = await readRunRecord(dir);
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.problem.reason).toMatch(/budgetTokenz/);
    expect(read.ok ? "" : read.problem.reason).toMatch(/budgetTokens/);
  });

  it("refuses a record with a limit missing", async () => {
    const read = await readRunRecord(await runJsonWith((limits) => delete limits["checkTimeoutMs"]));
    expect(read.ok ? "" : read.problem.reason).toMatch(/checkTimeoutMs/);
  });
});
