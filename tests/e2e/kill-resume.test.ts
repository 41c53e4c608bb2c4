/**
 * Crash safety through the real CLI: `evolve run` is stopped with Ctrl-C (SIGINT: exit 130,
 * run marked interrupted, no container left), resumed, SIGKILLed mid-generation, and resumed
 * again to the end. The archive must then hold exactly the generations asked for, no id
 * twice, and no container or volume of the run anywhere.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents, readRunRecord, type ArchiveEvent } from "../../harness/src/archive/index.js";
import { leftoversOfRun, readConsistentRun } from "../evolution/run-helpers.js";
import { killAll, spawnEvolve, theRunDir, waitFor, type EvolveProcess } from "../support/evolve-process.js";

// A quick agent (offline, its meta agent writes down that no LLM is there): crash safety is
// about the loop, and the seed agent's own runs are covered by offline-run.test.ts.
const AGENT = resolve(import.meta.dirname, "fixtures/llm-agent");
const GENERATIONS = 4;
let out: string;
const children: ChildProcess[] = [];

function evolve(args: string[]): EvolveProcess {
  return spawnEvolve(args, children);
}

async function events(runDir: string): Promise<ArchiveEvent[]> {
  return (await readEvents(runDir)).events;
}

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), "evolve-e2e-resume-"));
});
afterAll(async () => {
  killAll(children);
  await rm(out, { recursive: true, force: true });
});

describe("evolve run / resume across SIGINT and SIGKILL", () => {
  it("stops cleanly on Ctrl-C, survives SIGKILL mid-generation, and ends with exactly the generations asked for", async () => {
    // 1. Ctrl-C while the first children are in flight.
    const first = evolve(["run", "--agent", AGENT, "--generations", String(GENERATIONS), "--workers", "2", "--seed", "5", "--out", out]);
    await waitFor(async () => (await theRunDir(out)) !== "", first);
    const runDir = await theRunDir(out);
    const runId = basename(runDir);
    await waitFor(async () => (await events(runDir)).some((e) => e.type === "selected"), first);
    first.child.kill("SIGINT");
    expect(await first.exit, first.output()).toBe(130);
    const interrupted = await readRunRecord(runDir);
    expect(interrupted.ok && interrupted.value.status).toBe("interrupted");
    expect((await events(runDir)).at(-1)?.type).toBe("interrupted");
    expect(leftoversOfRun(runId)).toEqual({ containers: 0, volumes: 0 });
    expect((await readConsistentRun(runDir)).problems).toEqual([]);

    // 2. Resume, and SIGKILL it while a child is between self-modification and its record.
    const second = evolve(["resume", runDir]);
    const recordedBefore = (await events(runDir)).filter((e) => e.type === "recorded").length;
    await waitFor(async () => {
      const all = await events(runDir);
      const resumedAt = all.findIndex((e) => e.type === "resumed");
      const after = all.slice(resumedAt + 1);
      const pending = after.filter((e) => e.type === "self_modified").map((e) => (e as { generation: string }).generation);
      const recorded = new Set(after.filter((e) => e.type === "recorded").map((e) => (e as { generation: string }).generation));
      return resumedAt >= 0 && pending.some((g) => !recorded.has(g));
    }, second);
    second.child.kill("SIGKILL");
    await second.exit;
    const killed = await readConsistentRun(runDir, { tolerateBadEventLines: true });
    expect(killed.problems).toEqual([]);
    expect(killed.generations.length).toBeLessThan(GENERATIONS + 1);
    expect((await events(runDir)).filter((e) => e.type === "recorded").length).toBeGreaterThanOrEqual(recordedBefore);

    // 3. Resume to the end.
    const third = evolve(["resume", runId, "--out", out]);
    expect(await third.exit, third.output()).toBe(0);
    expect(third.output()).toContain(`run ${runId} finished: ${GENERATIONS}/${GENERATIONS} children`);

    const final = await readConsistentRun(runDir, { tolerateBadEventLines: true });
    expect(final.problems).toEqual([]);
    const ids = final.generations.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(GENERATIONS + 1);
    expect(final.generations.filter((g) => g.parent === null).map((g) => g.id)).toEqual(["g0000"]);
    const recordedEvents = (await events(runDir)).filter((e) => e.type === "recorded").map((e) => (e as { generation: string }).generation);
    expect(new Set(recordedEvents).size).toBe(recordedEvents.length);
    const run = await readRunRecord(runDir);
    expect(run.ok && run.value.status).toBe("finished");
    expect(leftoversOfRun(runId)).toEqual({ containers: 0, volumes: 0 });
    expect(await readFile(join(runDir, "report.html"), "utf8")).toContain("<html");
  }, 300_000);
});
