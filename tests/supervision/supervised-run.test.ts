/**
 * Supervised runs end to end, on the in-memory engine (approval is logic, not containers): a test agent (fixtures/gate-agent) whose
 * first change from any tree rewrites meta/state.ts (and scores 1), and whose later changes
 * only touch task/ (same score), on the small template task, with `best` selection so who
 * becomes a parent is determined by the approvals alone. Decisions come from the real CLI,
 * in other processes, while the run is live; and from the CLI after the run.
 */
import type { ChildProcess } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents, readGeneration, readRun, readRunRecord, type GenerationRecord } from "../../harness/src/archive/index.js";
import { resumeRun, startRun, type RunSummary } from "../../harness/src/evolution/index.js";
import { memorySink, readConsistentRun } from "../evolution/run-helpers.js";
import { evolve } from "../inspect/cli-harness.js";
import { killAll, spawnEvolve, waitFor } from "../support/evolve-process.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";

const AGENT = resolve(import.meta.dirname, "fixtures/gate-agent");
const ROOT = resolve(import.meta.dirname, "../..");

let env: TestEngine;
let scratch: string;
let out: string;
let task: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  env = await memoryEngine();
  scratch = await mkdtemp(join(tmpdir(), "evolve-supervised-"));
  out = join(scratch, "generations");
  // The folder's name is the task's name: `evolve new task` writes the template task.
  task = join(scratch, "template");
  await cp(join(ROOT, "templates/task"), task, { recursive: true });
}, 120_000);
afterAll(async () => {
  killAll(started);
  await rm(scratch, { recursive: true, force: true });
});

async function policyFile(name: string, policy: unknown): Promise<string> {
  const path = join(scratch, `${name}.json`);
  await writeFile(path, JSON.stringify(policy));
  return path;
}

function run(runId: string, policy: string, generations: number, signal = new AbortController().signal, from?: string): Promise<RunSummary> {
  const options = { task, agent: AGENT, generations, workers: 1, selection: "best" as const, seed: 3, out, runId, policy, ...(from === undefined ? {} : { from }) };
  return startRun(options, { sink: memorySink(), signal, env: {}, engine: env.engine, session: env.session });
}

const recorded = (runId: string, id: string) => () =>
  stat(join(out, runId, id, "generation.json")).then(
    () => true,
    () => false,
  );

/** `evolve ARGS --out OUT` in a process of its own, as a person would run it next to a live run. */
async function cliProcess(...args: string[]): Promise<{ code: number | null; output: string }> {
  const p = spawnEvolve([...args, "--out", out], started);
  const code = await p.exit;
  return { code, output: p.output() };
}

const parentsOf = (gens: readonly GenerationRecord[], id: string) => gens.filter((g) => g.parent === id).map((g) => g.id);

describe("a run whose policy makes meta/** changes wait", () => {
  it("records them pending; approving one live makes it a parent of later children, a rejected one never is", async () => {
    const policy = await policyFile("live", { approval: { paths: ["meta/**"] } });
    const live = run("live", policy, 12);
    await waitFor(recorded("live", "g0001"), live);
    const rejected = await cliProcess("reject", "live", "g0001", "--reason", "not this one");
    expect(rejected.code, rejected.output).toBe(0);
    await waitFor(recorded("live", "g0002"), live);
    const approved = await cliProcess("approve", "live", "g0002", "--note", "reviewed the meta change");
    expect(approved.code, approved.output).toBe(0);
    const summary = await live;
    expect(summary.end).toBe("finished");

    const runDir = join(out, "live");
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);
    const byId = new Map(generations.map((g) => [g.id, g]));
    const g1 = byId.get("g0001")!;
    const g2 = byId.get("g0002")!;
    // Both are children of the seed that rewrote meta/state.ts, and both waited.
    for (const g of [g1, g2]) {
      expect(g.parent).toBe("g0000");
      expect(g.status.kind).toBe("valid");
      expect(g.approval?.reasons).toEqual(["changes meta/state.ts (approval path meta/**)"]);
    }
    expect(g1.approval?.decision).toMatchObject({ verdict: "rejected", by: userInfo().username, note: "not this one" });
    expect(g2.approval?.decision).toMatchObject({ verdict: "approved", by: userInfo().username, note: "reviewed the meta change" });
    // `best` breaks ties to the earliest id: g0001 scores as g0002 does and would be chosen were it eligible.
    expect(g1.scores.visible).toBe(g2.scores.visible);
    expect(parentsOf(generations, "g0001")).toEqual([]);
    // Every selection after the approval took g0002 (the best eligible), and there were some.
    // The decision comes from another process: one selection may have read the archive just
    // before it landed and been recorded just after it (W = 1: at most one), and took the seed.
    const events = (await readEvents(runDir)).events;
    const approvedAt = events.findIndex((e) => e.type === "approved" && e.generation === "g0002");
    const later = events.slice(approvedAt).flatMap((e) => (e.type === "selected" ? [e.parent] : []));
    expect(later.slice(0, 1).every((parent) => parent === "g0002" || parent === "g0000"), later.join(" ")).toBe(true);
    expect(later.slice(1).every((parent) => parent === "g0002"), later.join(" ")).toBe(true);
    expect(later.filter((parent) => parent === "g0002").length).toBeGreaterThan(0);
    // Children selected before the decision came from the seed and wait like g0001 and g0002.
    for (const g of generations.filter((x) => x.parent === "g0000")) expect(g.approval, g.id).toBeDefined();
    // g0002's own children touch task/ only: no approval needed.
    for (const id of parentsOf(generations, "g0002")) expect(byId.get(id)?.approval, id).toBeUndefined();
    expect(events.filter((e) => e.type === "approval_requested").map((e) => (e.type === "approval_requested" ? e.generation : ""))).toContain("g0001");
    expect(summary.best?.id).toBe("g0002");
    expect(summary.approvals).toMatchObject({ approved: 1, rejected: 1 });
    const record = await readRunRecord(runDir);
    expect(record.ok && record.value.policy).toEqual({ approval: { paths: ["meta/**"] } });
  }, 240_000);
});

describe("protected paths", () => {
  it("refuse a child that edits one at the policy gate, with the path", async () => {
    const policy = await policyFile("frozen", { protectedPaths: ["meta/**"] });
    const summary = await run("frozen", policy, 1);
    expect(summary.invalid).toBe(1);
    const g1 = await readGeneration(join(out, "frozen"), "g0001");
    expect(g1.status).toMatchObject({ kind: "invalid", stage: "policy", code: "protected_path", file: "meta/state.ts" });
    expect(g1.status.kind === "invalid" && g1.status.message).toContain("meta/**");
  }, 120_000);

  it("and a policy file with a misspelt key stops the run before it starts, naming the key", async () => {
    const bad = await policyFile("bad", { protectedPath: ["meta/**"] });
    await expect(run("never", bad, 1)).rejects.toThrow(/protectedPath/);
    await expect(stat(join(out, "never"))).rejects.toThrow();
    const cli = await evolve("run", "--policy", bad, "--out", out);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/Unrecognized key: "protectedPath"/);
  });
});

describe("resume and branching with pending children", () => {
  it("keeps them pending and not redone; approved after the run, a child is a parent for resume and a branch point for --from", async () => {
    const policy = await policyFile("resume", { approval: { paths: ["meta/**"] } });
    const runDir = join(out, "paused");
    const first = new AbortController();
    const interrupted = run("paused", policy, 5, first.signal);
    await waitFor(recorded("paused", "g0001"), interrupted);
    first.abort();
    expect((await interrupted).end).toBe("interrupted");
    const g1Text = await readFile(join(runDir, "g0001", "generation.json"), "utf8");

    const pending = await evolve("pending", "paused", "--out", out);
    // The seed is evaluated whole (0.0417 on the visible split, though below stage 1's threshold), so the delta is +0.9583.
    expect(pending.stdout).toMatch(/^g0001 {2}<- g0000 {2}visible 1\.0000 \(\+0\.9583\)/m);
    await expect(run("early-branch", policy, 0, undefined, "paused/g0001")).rejects.toThrow(/waiting for approval/);

    // A resume while it waits: the new child comes from the seed; g0001 is untouched, still pending.
    const second = new AbortController();
    const resumed = resumeRun(runDir, { sink: memorySink(), signal: second.signal, env: {}, engine: env.engine, session: env.session });
    const before = (await readRun(runDir)).generations.length;
    await waitFor(async () => (await readRun(runDir)).generations.length > before, resumed);
    second.abort();
    expect((await resumed).end).toBe("interrupted");
    let gens = (await readRun(runDir)).generations;
    expect(gens.filter((g) => g.id !== "g0001" && g.parent !== null).every((g) => g.parent === "g0000")).toBe(true);
    expect(await readFile(join(runDir, "g0001", "generation.json"), "utf8")).toBe(g1Text);
    expect(gens.find((g) => g.id === "g0001")?.approval?.decision).toBeNull();

    // Approved while no process runs it: the next resume selects it.
    expect((await evolve("approve", "paused", "g0001", "--out", out)).code).toBe(0);
    const done = await resumeRun(runDir, { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session });
    expect(done.end).toBe("finished");
    gens = (await readConsistentRun(runDir)).generations;
    const approvedAt = (await readEvents(runDir)).events.findIndex((e) => e.type === "approved");
    const later = (await readEvents(runDir)).events.slice(approvedAt).filter((e) => e.type === "selected");
    expect(later.length).toBeGreaterThan(0);
    for (const e of later) expect(e.type === "selected" && e.parent).toBe("g0001");
    expect(parentsOf(gens, "g0001").length).toBe(later.length);

    const branch = await run("branch", policy, 0, undefined, "paused/g0001");
    expect(branch.end).toBe("finished");
    const seed = await readGeneration(join(out, "branch"), "g0000");
    expect(seed.snapshotHash).toBe(gens.find((g) => g.id === "g0001")?.snapshotHash);
  }, 300_000);
});

describe("approval.timeoutMinutes", () => {
  const CHILDREN = 8;
  it("rejects what nobody answered in time: the live run writes it down, and after the run nobody can approve it", async () => {
    // 0.02 minutes = 1.2 s. A child takes 0.3-1 s, so eight of them outlast the first one's
    // deadline and it times out during the run (four once did not, on a fast machine).
    const policy = await policyFile("timeout", { approval: { paths: ["meta/**"], timeoutMinutes: 0.02 } });
    const summary = await run("timeout", policy, CHILDREN);
    expect(summary.end).toBe("finished");
    const runDir = join(out, "timeout");
    // The last children may still be inside their 1.2 s when the run ends (on a loaded machine
    // more than one): wait for each deadline; approving then is refused and writes the rejection.
    for (const g of (await readRun(runDir)).generations.filter((c) => c.parent !== null && c.approval?.decision === null)) {
      const deadline = Date.parse(g.approval?.deadline ?? "");
      expect(Number.isFinite(deadline), g.id).toBe(true);
      await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now() + 100)));
      const approve = await evolve("approve", "timeout", g.id, "--out", out);
      expect(approve.code, g.id).toBe(2);
      // Rejected on the spot by this command, or already by the run if its deadline fell due first.
      expect(approve.stderr).toMatch(/timed out at .* and is rejected|already rejected by the timeout/);
    }
    const { generations } = await readRun(runDir);
    const children = generations.filter((g) => g.parent !== null);
    expect(children).toHaveLength(CHILDREN);
    for (const g of children) {
      expect(g.parent, g.id).toBe("g0000");
      expect(g.approval?.decision, g.id).toMatchObject({ verdict: "rejected", by: "timeout", timedOut: true });
    }
    // The first one timed out while the run was live: its rejection precedes the run's end.
    const events = (await readEvents(runDir)).events;
    const finished = events.findIndex((e) => e.type === "finished");
    const firstRejected = events.findIndex((e) => e.type === "rejected" && e.generation === "g0001");
    expect(firstRejected).toBeGreaterThan(-1);
    expect(firstRejected).toBeLessThan(finished);
    expect((await evolve("tree", "timeout", "--out", out)).stdout).toContain("g0001  1.0000 / 1.0000  valid REJECTED (timed out)");
  }, 120_000);
});
