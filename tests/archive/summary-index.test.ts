/**
 * summaries.jsonl (archive/summary-index.ts): the writer appends each generation's summary with
 * its record's size and time; readRunSummary takes a summary from there only while the record
 * keeps that stamp, and reads the record otherwise. These check that the index is used, and
 * that nothing it lacks or spoils changes an answer: a missing file, a missing or bad line, a
 * torn last line, a record rewritten since, a link to a device in the index's place.
 */
import { appendFile, readFile, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ArchiveWriter, GenerationSummary, readRun, readRunSummary } from "../../harness/src/archive/index.js";
import { tempDir } from "./fixtures.js";
import { generationRecord, runRecord, scored } from "../support/records.js";

const NO_FILES = { snapshotDir: null, patch: "", transcript: [], logs: {} } as const;

async function run(count = 3): Promise<{ dir: string; writer: ArchiveWriter }> {
  const root = await tempDir();
  const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
  for (let i = 0; i < count; i++) await record(writer, i === 0 ? null : "g0000", 0.5 + i / 10);
  return { dir: join(root, "r1"), writer };
}

async function record(writer: ArchiveWriter, parent: string | null, visible: number): Promise<string> {
  const id = writer.allocateGenerationId();
  await writer.recordGeneration(generationRecord({ id, parent, depth: parent === null ? 0 : 1, ...scored(visible) }), NO_FILES);
  return id;
}

const indexPath = (dir: string): string => join(dir, "summaries.jsonl");
const recordPath = (dir: string, id: string): string => join(dir, id, "generation.json");
const fromRecords = async (dir: string): Promise<GenerationSummary[]> => (await readRun(dir)).generations.map((g) => GenerationSummary.parse(g));

/**
 * Changes a record behind the index's back and gives its line the record's new stamp (a clock
 * cannot be set back to the nanosecond): only the index can still say the old score.
 */
async function forgeKeepingStamp(dir: string, id: string, from: string, to: string): Promise<void> {
  const path = recordPath(dir, id);
  const text = await readFile(path, "utf8");
  expect(text).toContain(from);
  await writeFile(path, text.replace(from, to));
  const stats = await stat(path);
  const lines = (await readFile(indexPath(dir), "utf8")).trimEnd().split("\n").map((l) => {
    if (!l.includes(`"id":"${id}"`)) return l;
    return JSON.stringify({ ...(JSON.parse(l) as object), record: { bytes: stats.size, mtimeMs: stats.mtimeMs } });
  });
  await writeFile(indexPath(dir), `${lines.join("\n")}\n`);
}

describe("the summary index", () => {
  it("holds one line per generation, written after the record, with the record's size and time", async () => {
    const { dir } = await run();
    const lines = (await readFile(indexPath(dir), "utf8")).trimEnd().split("\n").map((l) => JSON.parse(l) as { id: string; record: { bytes: number; mtimeMs: number } });
    expect(lines.map((l) => l.id)).toEqual(["g0000", "g0001", "g0002"]);
    const stats = await stat(recordPath(dir, "g0001"));
    expect(lines[1]?.record).toEqual({ bytes: stats.size, mtimeMs: stats.mtimeMs });
    expect((await readRunSummary(dir)).generations).toEqual(await fromRecords(dir));
  });

  it("is what readRunSummary reads while a record keeps its stamp", async () => {
    const { dir } = await run();
    await forgeKeepingStamp(dir, "g0002", '"visible": 0.7', '"visible": 0.1');
    expect((await readRun(dir)).generations[2]?.scores.visible).toBe(0.1);
    expect((await readRunSummary(dir)).generations[2]?.scores.visible).toBe(0.7);
  });

  it("gives way to the record once the record changed: a rewritten record is read, a corrupt one reported", async () => {
    const { dir } = await run();
    const path = recordPath(dir, "g0001");
    await writeFile(path, (await readFile(path, "utf8")).replace('"visible": 0.6', '"visible": 0.65'));
    await writeFile(recordPath(dir, "g0002"), "{ not json");
    const summary = await readRunSummary(dir);
    expect(summary.generations.map((g) => [g.id, g.scores.visible])).toEqual([["g0000", 0.5], ["g0001", 0.65]]);
    expect(summary.problems.map((p) => p.path)).toEqual([recordPath(dir, "g0002")]);
  });

  it("answers as the records do without the file, without a line, with a bad line, or with a device in its place", async () => {
    const { dir } = await run(4);
    const expected = await fromRecords(dir);
    const text = await readFile(indexPath(dir), "utf8");
    const lines = text.trimEnd().split("\n");
    const variants = [
      lines.slice(0, 2).join("\n") + "\n",
      [lines[0], "{ torn", lines[2], JSON.stringify({ ...JSON.parse(lines[3]!), scores: { visible: "high" } })].join("\n"),
      lines.map((l) => l.replace('"id":"g0001"', '"id":"g0009"')).join("\n"),
    ];
    for (const variant of variants) {
      await writeFile(indexPath(dir), variant);
      expect((await readRunSummary(dir)).generations).toEqual(expected);
    }
    await rm(indexPath(dir));
    expect((await readRunSummary(dir)).generations).toEqual(expected);
    await symlink("/dev/zero", indexPath(dir));
    expect((await readRunSummary(dir)).generations).toEqual(expected);
  });

  it("a torn last line left by a kill is ended when the run is reopened, so the next line lands whole", async () => {
    const { dir } = await run(2);
    await appendFile(indexPath(dir), '{"schemaVersion":1,"id":"g00');
    const writer = await ArchiveWriter.open(dir);
    const id = await record(writer, "g0000", 0.9);
    const last = (await readFile(indexPath(dir), "utf8")).trimEnd().split("\n").at(-1)!;
    expect((JSON.parse(last) as { id: string }).id).toBe(id);
    await forgeKeepingStamp(dir, id, '"visible": 0.9', '"visible": 0.1');
    expect((await readRunSummary(dir)).generations.at(-1)?.scores.visible).toBe(0.9);
  });

  it("a record with no line (a kill after its rename) is read from the record", async () => {
    const { dir } = await run(3);
    const text = await readFile(indexPath(dir), "utf8");
    await truncate(indexPath(dir), text.indexOf("\n") + 1);
    expect((await readRunSummary(dir)).generations).toEqual(await fromRecords(dir));
  });
});
