/**
 * Decisions on pending children, from the CLI, on an archive written through the real
 * ArchiveWriter (no engine needed): approve and reject record who, when and the note as a
 * file and an event; every request that cannot be decided is exit 2 with a clear message; a
 * timed-out request is rejected on the spot; processes racing on one child leave exactly one
 * decision; and every view tells pending, approved and rejected children apart.
 */
import { bestGeneration } from "../../harness/src/selection/index.js";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ArchiveWriter,
  decisionPath,
  DECISION_SCHEMA_VERSION,
  readEvents,
  readGeneration,
  readRun,
  writeDecision,
  type GenerationRecord,
} from "../../harness/src/archive/index.js";
import { buildReportData } from "../../harness/src/report/index.js";
import { candidatesFromGenerations } from "../../harness/src/selection/index.js";
import { evolve } from "../inspect/cli-harness.js";
import { killAll, spawnEvolve } from "../support/evolve-process.js";
import { generationRecord, invalidAt, runRecord, scored } from "../support/records.js";

const PAST = "2025-01-01T00:00:00.000Z";
const RUN = "supervised";
let root: string;
let runDir: string;
const started: ChildProcess[] = [];

const asks = (deadline: string | null = null): Pick<GenerationRecord, "approval"> => ({
  approval: { reasons: ["changes meta/index.ts (approval path meta/**)"], deadline, decision: null },
});

/** g0000 seed 0.5; g0001 pending 0.9; g0002 timed out 0.95; g0003 needs none 0.6; g0004 invalid; g0005..g0007 pending. */
const RECORDS: GenerationRecord[] = [
  generationRecord({ id: "g0000", ...scored(0.5, 0.4) }),
  generationRecord({ id: "g0001", parent: "g0000", depth: 1, ...scored(0.9, 0.8), ...asks() }),
  generationRecord({ id: "g0002", parent: "g0000", depth: 1, ...scored(0.95, 0.9), ...asks(PAST) }),
  generationRecord({ id: "g0003", parent: "g0000", depth: 1, ...scored(0.6, 0.5) }),
  generationRecord({ id: "g0004", parent: "g0000", depth: 1, ...invalidAt("policy", "protected_path", '"meta/index.ts": protected') }),
  generationRecord({ id: "g0005", parent: "g0000", depth: 1, ...scored(0.7, 0.6), ...asks() }),
  generationRecord({ id: "g0006", parent: "g0000", depth: 1, ...scored(0.7, 0.6), ...asks() }),
  generationRecord({ id: "g0007", parent: "g0000", depth: 1, ...scored(0.99, 0.6), ...asks() }),
];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "evolve-decisions-"));
  const writer = await ArchiveWriter.create(root, runRecord({ id: RUN, status: "finished", policy: { approval: { paths: ["meta/**"], timeoutMinutes: 30 } } }));
  for (const r of RECORDS) await writer.recordGeneration(r, { snapshotDir: null, patch: "", transcript: [], logs: {} });
  runDir = writer.runDir;
});
afterAll(async () => {
  killAll(started);
  await rm(root, { recursive: true, force: true });
});

const cli = (...args: string[]) => evolve(...args, "--out", root);

describe("pending children", () => {
  it("are neither parents nor the best, whatever their score, and evolve pending lists them against their parent", async () => {
    const { generations } = await readRun(runDir);
    const eligible = candidatesFromGenerations(generations).filter((c) => c.valid).map((c) => c.id);
    expect(eligible).toEqual(["g0000", "g0003"]);
    expect(bestGeneration(generations)?.id).toBe("g0003");
    const r = await cli("pending", RUN);
    expect(r.code).toBe(0);
    const listed = r.stdout.split("\n").filter((l) => /^g\d{4} /.test(l)).map((l) => l.slice(0, 5));
    expect(listed).toEqual(["g0001", "g0005", "g0006", "g0007"]);
    const g1 = r.stdout.split("\n").find((l) => l.startsWith("g0001"));
    expect(g1).toContain("visible 0.9000 (+0.4000)");
    expect(g1).toContain("1 file +2 −1");
    expect(r.stdout).toContain("changes meta/index.ts (approval path meta/**)");
    expect(r.stdout).toContain("timed out unanswered (rejected): g0002");
    const json = JSON.parse((await cli("pending", RUN, "--json")).stdout);
    expect(json.pending[0]).toMatchObject({ id: "g0001", parent: "g0000", parentScores: { visible: 0.5 }, diff: { files: 1, additions: 2, deletions: 1 } });
  });
});

describe("evolve approve and evolve reject", () => {
  it("record the decision with the OS user, the time and the note, as a file and an event", async () => {
    const before = Date.now();
    const r = await cli("approve", RUN, "g0001", "--note", "prompt change reviewed");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("approved g0001");
    const record = await readGeneration(runDir, "g0001");
    expect(record.approval?.decision).toMatchObject({ verdict: "approved", by: userInfo().username, note: "prompt change reviewed", timedOut: false });
    expect(Date.parse(record.approval?.decision?.at ?? "")).toBeGreaterThanOrEqual(before - 1000);
    // generation.json is never rewritten: the decision is its own file.
    expect(JSON.parse(await readFile(join(runDir, "g0001", "generation.json"), "utf8")).approval.decision).toBeNull();
    const events = (await readEvents(runDir)).events.filter((e) => e.type === "approved");
    expect(events).toEqual([expect.objectContaining({ generation: "g0001", by: userInfo().username, note: "prompt change reviewed" })]);
    const rejected = await cli("reject", RUN, "6", "--reason", "touches the prompts");
    expect(rejected.code).toBe(0);
    expect((await readGeneration(runDir, "g0006")).approval?.decision).toMatchObject({ verdict: "rejected", note: "touches the prompts" });
    // Approved: a parent and a candidate for the best; rejected: neither.
    const { generations } = await readRun(runDir);
    expect(candidatesFromGenerations(generations).filter((c) => c.valid).map((c) => c.id)).toEqual(["g0000", "g0001", "g0003"]);
    expect(bestGeneration(generations)?.id).toBe("g0001");
  });

  it("exit 2 with a clear message for what cannot be decided", async () => {
    const cases: [string[], RegExp][] = [
      [["approve", "no-such-run", "g0001"], /no run "no-such-run"/],
      [["approve", RUN, "g0042"], /no generation g0042/],
      [["approve", RUN, "best"], /'best' names a different child as the run goes on; name the one you mean/],
      [["approve", RUN, "g0003"], /g0003 does not need approval/],
      [["approve", RUN, "g0000"], /g0000 does not need approval/],
      [["reject", RUN, "g0004", "--reason", "x"], /g0004 is invalid \(policy: protected_path\)/],
      [["approve", RUN, "g0001"], /already approved by .* a decision is final/],
      [["reject", RUN, "g0001", "--reason", "changed my mind"], /already approved/],
      [["reject", RUN, "g0005"], /needs --reason TEXT/],
      [["pending", "no-such-run"], /no run "no-such-run"/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
    }
    expect((await readGeneration(runDir, "g0005")).approval?.decision).toBeNull();
  });

  it("reject a request whose deadline passed, writing the timeout down, and refuse to approve it", async () => {
    const r = await cli("approve", RUN, "g0002");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/g0002: it timed out at 2025-01-01T00:00:00.000Z and is rejected/);
    const decision = (await readGeneration(runDir, "g0002")).approval?.decision;
    expect(decision).toMatchObject({ verdict: "rejected", by: "timeout", timedOut: true });
    expect(decision?.note).toContain("within 30 minutes");
    const events = (await readEvents(runDir)).events.filter((e) => e.type === "rejected" && e.generation === "g0002");
    expect(events).toEqual([expect.objectContaining({ by: "timeout", timedOut: true })]);
  });

  it("leave one decision when several processes decide the same child at once: one wins, the others exit 2", async () => {
    const racers = ["approve", "reject", "approve", "reject"].map((verb, i) =>
      spawnEvolve([verb, RUN, "g0005", "--out", root, ...(verb === "reject" ? ["--reason", `racer ${i}`] : ["--note", `racer ${i}`])], started),
    );
    const codes = await Promise.all(racers.map((p) => p.exit));
    expect(codes.filter((c) => c === 0), racers.map((p) => p.output()).join("\n")).toHaveLength(1);
    expect(codes.filter((c) => c === 2)).toHaveLength(3);
    const winner = racers[codes.indexOf(0)]!;
    const decision = (await readGeneration(runDir, "g0005")).approval?.decision;
    expect(winner.output()).toContain(`${decision?.verdict} g0005`);
    const events = (await readEvents(runDir)).events.filter((e) => (e.type === "approved" || e.type === "rejected") && e.generation === "g0005");
    expect(events).toHaveLength(1);
    expect(existsSync(decisionPath(runDir, "g0005"))).toBe(true);
  }, 60_000);
});

describe("writeDecision", () => {
  it("lets the first of concurrent writers stand and tells the others what it was", async () => {
    const at = new Date().toISOString();
    const attempts = Array.from({ length: 16 }, (_, i) =>
      writeDecision(runDir, { schemaVersion: DECISION_SCHEMA_VERSION, generation: "g0099", verdict: i % 2 === 0 ? "approved" : "rejected", by: `writer-${i}`, at, note: null, timedOut: false }),
    );
    const results = await Promise.all(attempts);
    const winners = results.filter((r) => r.written);
    expect(winners).toHaveLength(1);
    const stored = JSON.parse(await readFile(decisionPath(runDir, "g0099"), "utf8"));
    expect(winners[0]?.written && winners[0].decision.by).toBe(stored.by);
    for (const r of results) if (!r.written) expect(r.existing?.by).toBe(stored.by);
    await rm(decisionPath(runDir, "g0099"));
  });
});

describe("the views", () => {
  it("tell pending, approved and rejected children apart in tree, show, ls and the report", async () => {
    const tree = await cli("tree", RUN);
    const line = (id: string) => tree.stdout.split("\n").find((l) => l.includes(`${id}  `)) ?? "";
    expect(line("g0001")).toContain("valid approved");
    expect(line("g0002")).toContain("valid REJECTED (timed out)");
    expect(line("g0007")).toContain("valid PENDING approval");
    expect(line("g0003")).toMatch(/valid {2}children/);
    expect(tree.stdout).toMatch(/pending approval; best g0001/);
    const show = await cli("show", RUN, "g0001");
    expect(show.stdout).toMatch(/approval {2}approved by \S+ at .*: prompt change reviewed/);
    expect(show.stdout).toContain("asked because changes meta/index.ts");
    expect((await cli("show", RUN, "g0007")).stdout).toContain("approval  pending approval");
    const ls = await cli("ls");
    const header = ls.stdout.split("\n")[0] ?? "";
    const row = ls.stdout.split("\n").find((l) => l.startsWith(RUN)) ?? "";
    expect(header).toContain("PENDING");
    // g0007 is the one still pending (g0005 went to the race, g0006 was rejected).
    expect(JSON.parse((await cli("ls", "--json")).stdout).runs[0]).toMatchObject({ pending: 1, best: { id: "g0001" } });
    expect(row).toContain(" 1 ");
    const { data } = buildReportData(await readRun(runDir), new Map(), new Date());
    const node = (id: string) => data.nodes.find((n) => n.id === id);
    expect([node("g0001")?.approval, node("g0002")?.approval, node("g0007")?.approval, node("g0003")?.approval]).toEqual(["approved", "rejected", "pending", null]);
    expect(node("g0006")?.approvalText).toContain("touches the prompts");
    expect(data.best).toBe("g0001");
  });
});
