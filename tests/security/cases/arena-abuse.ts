/**
 * Hostile test agents in a real arena run (`startRun --arena`, the sec-arena task, four
 * rounds, one test generation each; tests/security/fixtures/arena-abuse-agent): a flood of
 * proposals with malformed, huge and duplicated ones among the first; proposals aimed at
 * the oracle's trap doors (a hang, a heap blow-up, a throw); a stdout flood; a hunt for the
 * held-out split. Each must be contained with its reason in the record, the run must go on
 * to its end, and the held-out number must appear nowhere in the arena's records.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { arenaPaths, readArena, type TesterRecord } from "../../../harness/src/arena/index.js";
import { startRun } from "../../../harness/src/evolution/index.js";
import { memorySink, readConsistentRun } from "../../evolution/run-helpers.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const AGENT = new URL("../fixtures/arena-abuse-agent/", import.meta.url).pathname;
const TASK = new URL("../fixtures/sec-arena/", import.meta.url).pathname;
const SECRET = "424242";

function codes(t: TesterRecord | undefined): string[] {
  return (t?.proposals ?? []).map((p) => (p.outcome === "admitted" ? "admitted" : p.code));
}

async function allText(dir: string): Promise<string> {
  let text = "";
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), "utf8");
  }
  return text;
}

export async function arenaAbuse(c: CaseContext): Promise<CaseVerdict> {
  const out = await mkdtemp(join(tmpdir(), "evolve-sec-arena-"));
  const runId = `sec-arena-${c.runtime}-${randomBytes(3).toString("hex")}`;
  try {
    const started = Date.now();
    const summary = await startRun(
      { task: TASK, agent: AGENT, arena: { rounds: 4, suiteCap: 6 }, workers: 1, seed: 5, out, runId, runtime: c.runtime, evaluations: 0, improveTimeoutMs: 60_000 },
      { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: c.env.engine, session: c.session },
    );
    const wallMs = Date.now() - started;
    const runDir = join(out, runId);
    expect(summary.end).toBe("finished");
    const arena = await readArena(runDir);
    expect(arena.problems).toEqual([]);
    expect(arena.rounds.map((r) => r.phase)).toEqual(["complete", "complete", "complete", "complete"]);
    const [flood, oracleTraps, stdoutFlood, hunter] = arena.testers;

    // The flood: only the first eight are read, each judged on its own; the rest is one counted line.
    expect(flood?.propose).toMatchObject({ ok: true, returned: 5008 });
    expect(codes(flood)).toEqual(["schema", "schema", "schema", "too_large", "admitted", "duplicate", "not_discriminating", "admitted", "over_count"]);
    expect(flood?.proposals.at(-1)).toMatchObject({ reason: expect.stringMatching(/5,?000 more/) });

    // The oracle's trap doors: each bounded, and the fine proposal after them still judged.
    // The heap blow-up ends at the worker's heap cap or at its 2 s of CPU time, whichever comes
    // first: near its cap V8 spends CPU on last-resort collections (GC threads count too), and in
    // CI under runsc the clock once came first. Either way it was stopped and a fresh worker judged
    // the next one (tests/arena/judge-proposals checks the heap verdict itself, with a 96 MiB cap).
    const traps = codes(oracleTraps);
    expect([traps[0], traps[2], traps[3]]).toEqual(["oracle_failed", "oracle_timeout", "admitted"]);
    expect(["oracle_memory", "oracle_timeout"]).toContain(traps[1]);

    // A stdout flood is the agent's console output: the runner sends it to stderr, which is
    // capped, so the answer still arrives on its own channel and the log kept stays small.
    expect(stdoutFlood?.propose).toMatchObject({ ok: true, returned: 1 });
    expect(stdoutFlood?.proposals).toHaveLength(1);
    const floodLog = await stat(join(arenaPaths(runDir).tester(stdoutFlood!.id).logs, "propose.stderr"));
    expect(floodLog.size).toBeLessThanOrEqual(64 * 1024 + 256);

    // The hunt found nothing (b counts the places it found the number), and the number is nowhere in the arena.
    expect(hunter?.status.kind).toBe("valid");
    const hunted = arena.rounds[3]?.suite.find((t) => t.proposedBy === hunter?.id);
    expect(hunted?.proposal).toEqual({ a: 6000, b: 0 });
    expect(await allText(arenaPaths(runDir).dir)).not.toContain(SECRET);

    // The code side went on: one child a round.
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);
    expect(generations.filter((g) => g.parent !== null)).toHaveLength(4);
    expect(arena.rounds.every((r) => r.suite.length <= 6)).toBe(true);
    return {
      outcome: `flood: 8 of 5,008 read (3 schema, 1 too large, 1 duplicate, 1 not discriminating, 2 admitted); oracle hang, heap (${traps[1]}) and throw bounded; 64 MiB of stdout kept as a capped log; held-out never reached`,
      containMs: wallMs,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
