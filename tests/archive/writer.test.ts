import { statSync } from "node:fs";
import { access, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ArchiveWriter,
  diffTrees,
  readEvents,
  readRun,
  readTranscript,
  snapshotHash,
  writeTree,
} from "../../harness/src/archive/index.js";
import { tempDir } from "./fixtures.js";
import { AT, generationRecord, runRecord } from "../support/records.js";

const SEED = new Map([["task/index.ts", "export const x = 1;\n"], ["meta/index.ts", "export {};\n"]]);

async function snapshotOf(tree: Map<string, string>): Promise<string> {
  const dir = await tempDir("evolve-snap-");
  await writeTree(dir, tree);
  return dir;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe("ArchiveWriter", () => {
  it("creates a run and records a generation with every file of the layout", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    const id = writer.allocateGenerationId();
    expect(id).toBe("g0000");
    await writer.recordGeneration(generationRecord({ id, snapshotHash: snapshotHash(SEED) }), {
      snapshotDir: await snapshotOf(SEED),
      patch: diffTrees(new Map(), SEED).patch,
      transcript: [{ kind: "llm_request", at: AT, messages: [] }],
      logs: { "self-modify.stderr": "warn\n" },
    });
    const g = join(root, "r1", "g0000");
    expect((await readdir(g)).sort()).toEqual(["generation.json", "logs", "patch.diff", "snapshot", "transcript.jsonl"]);
    expect(await readFile(join(g, "snapshot", "task", "index.ts"), "utf8")).toBe("export const x = 1;\n");
    expect(await readFile(join(g, "logs", "self-modify.stderr"), "utf8")).toBe("warn\n");
    expect((await readTranscript(join(root, "r1"), "g0000")).entries).toEqual([{ kind: "llm_request", at: AT, messages: [] }]);
    const read = await readRun(join(root, "r1"));
    expect(read.problems).toEqual([]);
    expect(read.generations.map((x) => x.id)).toEqual(["g0000"]);
    expect((await readdir(join(root, "r1"))).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("refuses an existing run folder, a duplicate id, and a snapshot whose hash differs", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    await expect(ArchiveWriter.create(root, runRecord({ id: "r1" }))).rejects.toMatchObject({ code: "invalid_options" });
    const files = { snapshotDir: await snapshotOf(SEED), patch: "", transcript: [], logs: {} };
    await writer.recordGeneration(generationRecord({ snapshotHash: snapshotHash(SEED) }), files);
    await expect(writer.recordGeneration(generationRecord({ snapshotHash: snapshotHash(SEED) }), files)).rejects.toThrow(/already recorded/);
    await expect(writer.recordGeneration(generationRecord({ id: "g0001", parent: "g0000", depth: 1, snapshotHash: "0".repeat(64) }), files)).rejects.toThrow(/hash/);
    expect(await exists(join(root, "r1", "g0001"))).toBe(false);
    expect((await readdir(join(root, "r1"))).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("leaves no generation folder when a write fails half way", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    const bad = await snapshotOf(SEED);
    await mkdir(join(bad, "zz"));
    // The copy reaches the link after writing other files, then refuses it: the harness only
    // records trees it has read, so a link here is its own failure (internal), not the agent's.
    await symlink("/etc/passwd", join(bad, "zz", "link"));
    await expect(
      writer.recordGeneration(generationRecord({ snapshotHash: snapshotHash(SEED) }), { snapshotDir: bad, patch: "", transcript: [], logs: {} }),
    ).rejects.toMatchObject({ code: "internal" });
    expect((await readdir(join(root, "r1"))).sort()).toEqual(["events.jsonl", "run.json"]);
  });

  it("moves a scratch snapshot into the record, copies one from another filesystem, and keeps a caller's folder", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    const record = (id: string) => generationRecord({ id, snapshotHash: snapshotHash(SEED) });
    const scratch = await snapshotOf(SEED);
    await writer.recordGeneration(record("g0000"), { snapshotDir: scratch, moveSnapshot: true, patch: "", transcript: [], logs: {} });
    expect(await exists(scratch)).toBe(false);
    const kept = await snapshotOf(SEED);
    await writer.recordGeneration(record("g0001"), { snapshotDir: kept, patch: "", transcript: [], logs: {} });
    expect(await readFile(join(kept, "task", "index.ts"), "utf8")).toBe("export const x = 1;\n");
    // A rename cannot cross filesystems (EXDEV): /dev/shm is a tmpfs apart from the disk here.
    const shm = await mkdtemp("/dev/shm/evolve-snap-");
    try {
      expect(statSync(shm).dev).not.toBe(statSync(root).dev);
      await writeTree(shm, SEED);
      await writer.recordGeneration(record("g0002"), { snapshotDir: shm, moveSnapshot: true, patch: "", transcript: [], logs: {} });
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
    const read = await readRun(join(root, "r1"));
    expect(read.problems).toEqual([]);
    for (const id of ["g0000", "g0001", "g0002"]) expect(await readFile(join(root, "r1", id, "snapshot", "meta", "index.ts"), "utf8")).toBe("export {};\n");
  });

  it("leaves no generation folder when a moved snapshot holds what no tree may", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    const bad = await snapshotOf(SEED);
    await symlink("/etc/passwd", join(bad, "link"));
    await expect(
      writer.recordGeneration(generationRecord({ snapshotHash: snapshotHash(SEED) }), { snapshotDir: bad, moveSnapshot: true, patch: "", transcript: [], logs: {} }),
    ).rejects.toThrow(/link/);
    expect((await readdir(join(root, "r1"))).sort()).toEqual(["events.jsonl", "run.json"]);
  });

  it("refuses unsafe log names and invalid records before writing anything", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    await expect(writer.recordGeneration(generationRecord(), { snapshotDir: null, patch: "", transcript: [], logs: { "../x": "" } })).rejects.toThrow(/log name/);
    await expect(writer.recordGeneration({ ...generationRecord(), depth: -3 }, { snapshotDir: null, patch: "", transcript: [], logs: {} })).rejects.toThrow(/depth/);
    await expect(
      writer.recordGeneration(generationRecord(), { snapshotDir: null, patch: "", transcript: [{ kind: "x" } as never], logs: {} }),
    ).rejects.toThrow(/transcript entry 0/);
    expect((await readdir(join(root, "r1"))).sort()).toEqual(["events.jsonl", "run.json"]);
  });

  it("reopens a killed run: sweeps temporaries, continues ids, ends a partial event line", async () => {
    const root = await tempDir();
    const runDir = join(root, "r1");
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    for (const _ of [0, 1, 2]) {
      const id = writer.allocateGenerationId();
      await writer.recordGeneration(generationRecord({ id, parent: id === "g0000" ? null : "g0000", depth: id === "g0000" ? 0 : 1 }), {
        snapshotDir: null,
        patch: "",
        transcript: [],
        logs: {},
      });
      await writer.appendEvent({ type: "recorded", at: AT, generation: id, status: "valid" });
    }
    // What a SIGKILL mid-write leaves behind: a staged folder, a staged run.json, half an event.
    await mkdir(join(runDir, ".tmp-g0003-999-abcd", "snapshot"), { recursive: true });
    await writeFile(join(runDir, ".tmp-g0003-999-abcd", "generation.json"), "{\"schemaVersion\":1,");
    await writeFile(join(runDir, ".tmp-run.json-999-abcd"), "{");
    await writeFile(join(runDir, "events.jsonl"), (await readFile(join(runDir, "events.jsonl"), "utf8")) + '{"type":"sel');

    const reopened = await ArchiveWriter.open(runDir);
    expect((await readdir(runDir)).filter((n) => n.startsWith("."))).toEqual([]);
    expect(reopened.recordedIds().sort()).toEqual(["g0000", "g0001", "g0002"]);
    expect(reopened.allocateGenerationId()).toBe("g0003");
    await reopened.appendEvent({ type: "resumed", at: AT, recorded: 3 });
    const { events, problems } = await readEvents(runDir);
    expect(events.map((e) => e.type)).toEqual(["recorded", "recorded", "recorded", "resumed"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toBe(`${join(runDir, "events.jsonl")}:4`);
  });

  it("rewrites run.json atomically and keeps ids monotonic past recorded ones", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    const updated = await writer.updateRun((r) => ({ ...r, status: "finished" }));
    expect(updated.status).toBe("finished");
    expect(JSON.parse(await readFile(join(root, "r1", "run.json"), "utf8")).status).toBe("finished");
    await expect(writer.updateRun((r) => ({ ...r, status: "exploded" as never }))).rejects.toThrow(/status/);
    expect(writer.run.status).toBe("finished");
    await writer.recordGeneration(generationRecord({ id: "g0005" }), { snapshotDir: null, patch: "", transcript: [], logs: {} });
    expect(writer.allocateGenerationId()).toBe("g0006");
    expect((await readdir(join(root, "r1"))).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("serialises concurrent events and records into whole lines and whole folders", async () => {
    const root = await tempDir();
    const writer = await ArchiveWriter.create(root, runRecord({ id: "r1" }));
    const ids = Array.from({ length: 20 }, () => writer.allocateGenerationId());
    await Promise.all(
      ids.flatMap((id) => [
        writer.recordGeneration(generationRecord({ id }), { snapshotDir: null, patch: "", transcript: [], logs: {} }),
        writer.appendEvent({ type: "recorded", at: AT, generation: id, status: "valid" }),
      ]),
    );
    const { events, problems } = await readEvents(join(root, "r1"));
    expect(problems).toEqual([]);
    expect(events.map((e) => ("generation" in e ? e.generation : "")).sort()).toEqual(ids);
    expect((await readRun(join(root, "r1"))).generations).toHaveLength(20);
  });

  it("reports a missing run when opening", async () => {
    await expect(ArchiveWriter.open(join(await tempDir(), "nope"))).rejects.toMatchObject({ code: "unknown_run" });
  });
});
