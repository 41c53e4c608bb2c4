/**
 * No crash loop: a harness that dies while checking a child (here SIGKILLed mid-check, as a
 * checker blow-up would end it) is seen as crashed by `evolve ls`, and when it died twice
 * while checking the same tree, the next `resume` records that child invalid instead of
 * checking it a third time; the run then ends normally.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents, readRunRecord } from "../../harness/src/archive/index.js";
import { leftoversOfRun, readConsistentRun } from "../evolution/run-helpers.js";
import { killAll, spawnEvolve, theRunDir, waitFor } from "../support/evolve-process.js";

// Writes the same recursive-type bomb every generation; with generous check limits its
// check outlasts the moment the test kills the harness.
const AGENT = resolve(import.meta.dirname, "fixtures/bomb-agent");
let out: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), "evolve-e2e-crash-loop-"));
});
afterAll(async () => {
  killAll(children);
  await rm(out, { recursive: true, force: true });
});

/** Starts `evolve ARGS`, waits for a child's checks to begin in this process, SIGKILLs it mid-check. */
async function killWhileChecking(args: string[]): Promise<{ runDir: string; child: string }> {
  const starts = async (dir: string): Promise<number> => (await readEvents(dir)).events.filter((e) => e.type === "started" || e.type === "resumed").length;
  const existing = await theRunDir(out);
  const before = existing === "" ? 0 : await starts(existing);
  const p = spawnEvolve(args, children);
  let runDir = "";
  let child = "";
  await waitFor(async () => {
    runDir = await theRunDir(out);
    if (runDir === "") return false;
    const events = (await readEvents(runDir)).events;
    if ((await starts(runDir)) <= before) return false; // this process has not begun yet
    const since = events.findLastIndex((e) => e.type === "started" || e.type === "resumed");
    const checking = events.slice(since + 1).find((e) => e.type === "checking" && e.generation !== "g0000");
    child = checking?.type === "checking" ? checking.generation : "";
    return child !== "";
  }, p);
  await new Promise((r) => setTimeout(r, 1_000)); // well inside the check (it runs for minutes)
  p.child.kill("SIGKILL");
  expect(await p.exit, p.output()).toBeNull();
  return { runDir, child };
}

describe("a tree that kills the harness while it is checked", () => {
  it("shows as crashed, is recorded invalid after the second death, and the run ends", async () => {
    const limits = ["--check-memory", "8192", "--check-timeout", "900"];
    const first = await killWhileChecking(["run", "--agent", AGENT, "--generations", "1", "--workers", "1", "--out", out, ...limits]);
    const runId = first.runDir.slice(out.length + 1);
    expect(first.child).toBe("g0001");

    const ls = spawnEvolve(["ls", "--out", out, "--json"], children);
    expect(await ls.exit, ls.output()).toBe(0);
    const listed = JSON.parse(ls.output()) as { runs: { id: string; status: string }[] };
    expect(listed.runs.find((r) => r.id === runId)?.status).toBe("crashed");

    const second = await killWhileChecking(["resume", runId, "--out", out]);
    expect(second.child).toBe("g0001"); // unrecorded ids are free again

    const third = spawnEvolve(["resume", runId, "--out", out], children);
    expect(await third.exit, third.output()).toBe(0);
    expect(third.output()).toContain("g0001 was in checks when the last process died; it was not recorded; a newly selected child takes its place (ids go on from the last recorded one)");
    const { generations, problems } = await readConsistentRun(first.runDir, { tolerateBadEventLines: true });
    expect(problems).toEqual([]);
    expect(generations.map((g) => g.id)).toEqual(["g0000", "g0001"]);
    const child = generations[1]!;
    expect(child.status).toMatchObject({ kind: "invalid", stage: "compile", code: "harness_died_checking" });
    expect(child.status.kind === "invalid" ? child.status.message : "").toMatch(/the harness died 2 times while checking this tree/);
    const hashes = (await readEvents(first.runDir)).events.flatMap((e) => (e.type === "checking" && e.generation !== "g0000" ? [e.snapshotHash] : []));
    expect(hashes).toHaveLength(3);
    expect(new Set(hashes).size).toBe(1); // the same tree all three times
    const run = await readRunRecord(first.runDir);
    expect(run.ok && run.value.status).toBe("finished");
    expect(leftoversOfRun(runId)).toEqual({ containers: 0, volumes: 0 });
  }, 300_000);
});
