/**
 * One run on several Docker engines, for real: the local engine plus two more this file
 * starts in network namespaces of its own (tests/support/extra-engines.ts), reached over TCP
 * with TLS client certificates through Docker contexts. No mocks: every container runs on
 * one of the three engines.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents } from "../../harness/src/archive/index.js";
import { startRun } from "../../harness/src/evolution/index.js";
import { connectEngines, newSessionId, type EngineConnector, type EngineEntry, type EngineEvent } from "../../sandbox/src/index.js";
import { evolve } from "../inspect/cli-harness.js";
import { leftoversOfRun, leftoversOfSession, memorySink, readConsistentRun } from "../evolution/run-helpers.js";
import { killAll, spawnEvolve, waitFor } from "../support/evolve-process.js";
import { startExtraEngines, type ExtraEngine, type ExtraEngines } from "../support/extra-engines.js";

let fx: ExtraEngines;
let out: string;
let a: ExtraEngine;
let b: ExtraEngine;
const MAIN: EngineEntry = { spec: "default", label: "main" };
/** Health checks every half second, so a test sees an engine go down and come back quickly. */
const FAST_HEALTH = { intervalMs: 500, timeoutMs: 3_000, allDownWaitMs: 60_000 };

beforeAll(async () => {
  // b without gVisor: runs that ask for runsc must refuse it.
  fx = await startExtraEngines([{}, { runsc: false }]);
  [a, b] = fx.engines as [ExtraEngine, ExtraEngine];
  // The contexts naming the engines; the CLI and connectEngines read them from here.
  process.env["DOCKER_CONFIG"] = fx.dockerConfig;
  out = await mkdtemp(join(tmpdir(), "evolve-fleet-"));
}, 180_000);
afterAll(async () => {
  await fx?.dispose();
  if (out) await rm(out, { recursive: true, force: true });
});

/** What the CLI's wiring point does with --engine flags, with fast health checks; events go to `seen`. */
function engines(entries: EngineEntry[], seen: EngineEvent[] = [], requireAll = false): EngineConnector {
  return async (settings) => {
    const fleet = await connectEngines({ engines: entries, requireAll }, { ...settings, health: FAST_HEALTH });
    fleet.watch((event) => seen.push(event));
    return fleet;
  };
}

function leftoversEverywhere(runId: string): number {
  const counts = [leftoversOfRun(runId), ...fx.engines.map((e) => leftoversOfRun(runId, ["-H", `unix://${e.socket}`]))];
  return counts.reduce((sum, c) => sum + c.containers + c.volumes, 0);
}

describe("a run on several engines", () => {
  it("completes across three engines with children on each, and records where each phase ran", async () => {
    const sink = memorySink();
    const summary = await startRun({ generations: 6, seed: 3, out, runId: "three" }, { sink, signal: new AbortController().signal, env: {}, engine: engines([MAIN, { spec: a.context }, { spec: b.context }]) });
    expect(summary.end, sink.text()).toBe("finished");
    const runDir = join(out, "three");
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);
    expect(generations.map((g) => g.id)).toEqual(["g0000", "g0001", "g0002", "g0003", "g0004", "g0005", "g0006"]);
    // Six workers: one per slot (2 CPUs and 23 GiB each: 2 slots per engine).
    expect(sink.text()).toContain("6 workers");
    // The seed's first container is its stage-1 session (which also makes its import check).
    for (const g of generations) expect(Object.keys(g.engines ?? {}), g.id).toContain(g.parent === null ? "evaluate-stage1" : "self-modify");
    const ranOn = (engine: string): string[] => generations.filter((g) => g.parent !== null && Object.values(g.engines ?? {}).some((list) => list.includes(engine))).map((g) => g.id);
    for (const engine of ["main", a.context, b.context]) expect(ranOn(engine), `children with a phase on ${engine}`).not.toEqual([]);
    // A child that went through every phase (with ctx.evaluate, "no move helped" children stop at the policy gate).
    const judged = generations.find((g) => g.parent !== null && g.status.kind === "valid");
    expect(judged, "a valid child").toBeDefined();
    const shown = await evolve("show", "three", judged!.id, "--out", out);
    // Phases in order of first use; a ctx.evaluate draft's evaluations are draft-evaluate-*. A
    // child's import check is made in its first evaluation session, so no validate container: a
    // raced child (the default) is evaluated in one visible session; a staged one starts with stage 1.
    expect(shown.stdout).toMatch(/^engines {3}self-modify [^;]+;.*\bevaluate-(stage1|visible) \S+/m);
    expect(shown.stdout).not.toMatch(/^engines .*\bvalidate /m);
    expect(leftoversEverywhere("three")).toBe(0);
  }, 300_000);

  it("refuses an engine that does not take this client's certificate, saying which and why", async () => {
    const refused = connectEngines({ engines: [{ spec: fx.wrongCertContext }], requireAll: false }, {});
    await expect(refused).rejects.toMatchObject({ code: "engine_tls", message: expect.stringContaining(`refused this client's TLS certificate (TLS alert "bad certificate")`) });
    const doctor = await evolve("doctor", "--engine", fx.wrongCertContext);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`${fx.wrongCertContext} at ${a.url} refused this client's TLS certificate`);
    expect(doctor.stdout).toMatch(/fix: cert\.pem and key\.pem must be a client certificate signed by the CA the engine trusts/);
  }, 60_000);

  it("refuses, naming it and why, an engine without the runtime the run asks for; doctor checks every engine", async () => {
    const strict = startRun({ generations: 0, out, runId: "runsc-strict", runtime: "runsc" }, { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: engines([{ spec: a.context }, { spec: b.context }], [], true) });
    await expect(strict).rejects.toMatchObject({ code: "engine_refused", message: expect.stringContaining(`${b.context} (refused): it has no runsc runtime (it has runc)`) });
    const sink = memorySink();
    const summary = await startRun({ generations: 0, out, runId: "runsc", runtime: "runsc" }, { sink, signal: new AbortController().signal, env: {}, engine: engines([{ spec: a.context }, { spec: b.context }]) });
    expect(summary.end).toBe("finished");
    expect(sink.text()).toContain(`engine ${b.context} (${b.url}) is refused: it has no runsc runtime`);
    const seed = (await readConsistentRun(join(out, "runsc"))).generations[0];
    expect(seed?.status.kind).toBe("valid");
    expect(Object.values(seed?.engines ?? {}).flat()).toEqual(expect.arrayContaining([a.context]));
    expect(Object.values(seed?.engines ?? {}).flat()).not.toContain(b.context);

    const doctor = await evolve("doctor", "--engine", a.context, "--engine", b.context);
    expect(doctor.code, doctor.stdout).toBe(0);
    for (const e of [a, b]) {
      expect(doctor.stdout).toMatch(new RegExp(`^ok +engine ${e.context} +${e.url}, Docker \\S+ \\(API \\S+\\), \\S+, \\d+ CPUs, [\\d.]+ GiB; \\d+ slots$`, "m"));
      expect(doctor.stdout).toMatch(new RegExp(`^ok +image ${e.context} +evolve-runtime:[0-9a-f]{16} \\((up to date|built now)`, "m"));
    }
    expect(doctor.stdout).toMatch(new RegExp(`^ok +runtimes ${a.context} +runc, runsc$`, "m"));
    expect(doctor.stdout).toMatch(new RegExp(`^ok +runtimes ${b.context} +runc \\(gVisor runsc not registered`, "m"));
  }, 180_000);

  it("reports and skips an engine that does not answer at start, or stops before anything starts when all are required", async () => {
    const ghost: EngineEntry = { spec: "unix:///nonexistent/evolve-test/docker.sock", label: "ghost" };
    const io = { signal: new AbortController().signal, env: {} };
    await expect(startRun({ generations: 0, out, runId: "strict" }, { ...io, sink: memorySink(), engine: engines([{ spec: a.context }, ghost], [], true) })).rejects.toMatchObject({
      code: "engine_unreachable",
      message: expect.stringMatching(/every engine is required, but ghost \(unreachable\): no Docker engine answers at unix:\/\/\/nonexistent/),
    });
    expect(await readdir(out)).not.toContain("strict");
    const sink = memorySink();
    const lenient = await startRun({ generations: 0, out, runId: "lenient" }, { ...io, sink, engine: engines([{ spec: a.context }, ghost]) });
    expect(lenient.end).toBe("finished");
    expect(sink.text()).toMatch(/engine ghost \(unix:\/\/\/nonexistent\/evolve-test\/docker.sock\) is unreachable: .*; skipped until it answers/);
  }, 120_000);

  it("resumes across engines after the coordinator is SIGKILLed: its containers are swept from every engine, nothing lost or twice", async () => {
    const started: ChildProcess[] = [];
    const flags = ["--engine", a.context, "--engine", b.context];
    try {
      const first = spawnEvolve(["run", "--generations", "8", "--seed", "9", "--evaluations", "0", "--out", out, ...flags], started);
      await waitFor(async () => (first.output().match(/^g\d{4} <- /gm) ?? []).length >= 2, first, 240_000);
      first.child.kill("SIGKILL");
      await first.exit;
      const runId = /^run (\S+):/m.exec(first.output())?.[1];
      expect(runId, first.output()).toBeDefined();
      // The dead process's containers (in flight, and its warm pools) are still on the engines.
      expect(leftoversEverywhere(runId!)).toBeGreaterThan(0);
      const resumed = spawnEvolve(["resume", runId!, "--out", out, ...flags], started);
      expect(await resumed.exit, resumed.output()).toBe(0);
      expect(resumed.output()).toMatch(/^swept [1-9]\d* containers and \d+ volumes left by dead sessions$/m);
      expect(resumed.output()).toMatch(/resuming \S+: \d+\/8 children recorded/);
      const { generations, problems } = await readConsistentRun(join(out, runId!), { tolerateBadEventLines: true });
      expect(problems).toEqual([]);
      expect(generations.filter((g) => g.parent !== null)).toHaveLength(8);
      expect(new Set(generations.map((g) => g.id)).size).toBe(generations.length);
      expect(leftoversEverywhere(runId!)).toBe(0);
    } finally {
      killAll(started);
    }
  }, 600_000);

  it("loses an engine mid-run (killed whole, containers and all), redoes its children elsewhere, and uses it again when it answers", async () => {
    // Killed the way a power cut would, then started again on the same data root.
    await runWithFault("crash", b, () => b.crash(), () => b.start());
  }, 600_000);

  it("sweeps what an engine killed whole held for this process (its warm pool) before it takes containers again, though nothing running there was lost", async () => {
    const seen: EngineEvent[] = [];
    const fleet = await connectEngines({ engines: [{ spec: b.context }], requireAll: true }, { warmPool: 1, health: FAST_HEALTH });
    fleet.watch((event) => seen.push(event));
    try {
      const image = await fleet.ensureRuntimeImage();
      const session = newSessionId();
      const onB = (): number => {
        const left = leftoversOfSession(session, ["-H", `unix://${b.socket}`]);
        return left.containers + left.volumes;
      };
      // Nothing to watch but the fleet's events: a promise that never settles stands for the process.
      const until = (done: () => boolean): Promise<void> => waitFor(async () => done(), new Promise(() => undefined), 60_000);
      // One container run and removed: b's pool makes one more in its place and keeps it.
      const used = await fleet.startSandbox({ image: image.tag, command: image.command, labels: { session, run: "pool-crash" } }, { timeoutMs: 30_000, stdoutCapBytes: 1_000, stderrCapBytes: 1_000 });
      await used.kill();
      await used.remove();
      await until(() => onB() === 2); // b's warm pool holds a container, and its volume
      await b.crash();
      await until(() => seen.some((e) => e.type === "down"));
      await b.start();
      await until(() => seen.some((e) => e.type === "up"));
      expect(onB(), "this session's containers and volumes on b once it answered again").toBe(0);
    } finally {
      await fleet.close();
    }
  }, 120_000);

  it("marks an engine that stops answering (its dockerd frozen) down within the health timeout, and uses it again when it answers", async () => {
    // SIGSTOP: connections are accepted by the kernel and never answered; nothing fails fast.
    await runWithFault("hang", a, async () => a.signal("SIGSTOP"), async () => a.signal("SIGCONT"));
  }, 600_000);
});

/**
 * A 14-child run on three engines; `fail` is done to `victim` while its first child
 * container runs, `mend` a second after the fleet marked it down. Nothing may be lost or
 * recorded twice; the events must say what happened; the victim must take containers again.
 * Without ctx.evaluate drafts (`evaluations: 0`, as in the resume test): what is tested is
 * where containers go when an engine fails, and the drafts' containers only tripled the CPU
 * each child costs; the first test keeps them.
 */
async function runWithFault(runId: string, victim: ExtraEngine, fail: () => Promise<void>, mend: () => Promise<void>): Promise<void> {
  const seen: EngineEvent[] = [];
  let failed: Promise<void> | null = null;
  let mended: Promise<void> | null = null;
  const faults = (event: EngineEvent): void => {
    if (failed === null && event.type === "placed" && event.engine === victim.context && event.labels.generation !== "g0000") {
      failed = new Promise((r) => setTimeout(r, 300)).then(fail);
    }
    if (mended === null && failed !== null && event.type === "down" && event.engine === victim.context) {
      mended = failed.then(() => new Promise((r) => setTimeout(r, 1_000))).then(mend);
    }
  };
  const connect: EngineConnector = async (settings) => {
    const fleet = await engines([MAIN, { spec: a.context }, { spec: b.context }], seen)(settings);
    fleet.watch(faults);
    return fleet;
  };
  const sink = memorySink();
  const summary = await startRun({ generations: 14, seed: 5, evaluations: 0, out, runId }, { sink, signal: new AbortController().signal, env: {}, engine: connect });
  await mended;
  expect(summary.end, sink.text()).toBe("finished");
  expect(failed).not.toBeNull();

  // Nothing lost, nothing twice: every child recorded once, the archive whole.
  const runDir = join(out, runId);
  const { generations, problems } = await readConsistentRun(runDir);
  expect(problems).toEqual([]);
  expect(generations.map((g) => g.id)).toEqual(Array.from({ length: 15 }, (_, i) => `g${String(i).padStart(4, "0")}`));
  const { events } = await readEvents(runDir);
  const recorded = events.filter((e) => e.type === "recorded").map((e) => (e as { generation: string }).generation);
  expect(new Set(recorded).size).toBe(recorded.length);

  // The events tell it: the victim down, the children it held redone, the victim up again.
  const health = events.filter((e) => e.type === "engine").map((e) => `${(e as { engine: string }).engine} ${(e as { state: string }).state}`);
  expect(health).toEqual(expect.arrayContaining([`${victim.context} down`, `${victim.context} up`]));
  const redone = events.filter((e) => e.type === "redone") as { generation: string; reason: string }[];
  expect(redone.length, sink.text()).toBeGreaterThanOrEqual(1);
  for (const r of redone) {
    expect(r.reason).toContain(victim.context);
    expect(recorded.filter((g) => g === r.generation)).toHaveLength(1);
  }
  expect(sink.text()).toMatch(new RegExp(`engine ${victim.context} is down \\(`));
  expect(sink.text()).toContain(`engine ${victim.context} answers again`);

  // Used again once it answered: containers went to it after its "up".
  const upAt = seen.findIndex((e) => e.type === "up" && e.engine === victim.context);
  expect(upAt).toBeGreaterThan(0);
  expect(seen.slice(upAt).filter((e) => e.type === "placed" && e.engine === victim.context).length, "placements after it came back").toBeGreaterThan(0);
  expect(leftoversEverywhere(runId)).toBe(0);
}
