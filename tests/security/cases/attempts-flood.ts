/**
 * What an agent writes reaches its siblings as an attempt (ImproveRequest.attempts): a hostile
 * summary (200 KB, control characters, a forged outcome and held-out score) must arrive capped
 * to one line, beside the outcome the harness recorded, and nothing of the held-out split may
 * be in any attempt. In the real loop (`startRun`, sec-sum, `best` selection so every child is
 * the seed's: each later one is shown the earlier ones as siblings).
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Attempt } from "@evolve/contract";
import { expect } from "vitest";
import { generationPaths } from "../../../harness/src/archive/index.js";
import { ATTEMPT_SUMMARY_CHARS, startRun } from "../../../harness/src/evolution/index.js";
import { parseTranscript, type AttemptsTranscriptEntry } from "../../../harness/src/llm/index.js";
import { memorySink, readConsistentRun } from "../../evolution/run-helpers.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const AGENT = new URL("../fixtures/attempts-agent/", import.meta.url).pathname;
const TASK = new URL("../fixtures/sec-sum/", import.meta.url).pathname;

/** What the agent of `id` was shown, from the file it wrote in its own tree. */
async function seenBy(runDir: string, id: string): Promise<Attempt[]> {
  const source = await readFile(join(generationPaths(runDir, id).snapshot, "meta", "seen.ts"), "utf8");
  return JSON.parse(JSON.parse(source.slice(source.indexOf("=") + 1, source.lastIndexOf(";"))) as string) as Attempt[];
}

export async function attemptsFlood(c: CaseContext): Promise<CaseVerdict> {
  const out = await mkdtemp(join(tmpdir(), "evolve-sec-attempts-"));
  const runId = `sec-attempts-${c.runtime}-${randomBytes(3).toString("hex")}`;
  try {
    const started = Date.now();
    const summary = await startRun(
      { task: TASK, agent: AGENT, generations: 3, workers: 1, seed: 4, out, runId, runtime: c.runtime, selection: "best", evaluations: 0, improveTimeoutMs: 120_000 },
      { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: c.env.engine, session: c.session },
    );
    const wallMs = Date.now() - started;
    const runDir = join(out, runId);
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);
    expect(summary.end).toBe("finished");
    expect(generations.map((g) => [g.id, g.parent, g.status.kind])).toEqual([["g0000", null, "valid"], ["g0001", "g0000", "valid"], ["g0002", "g0000", "valid"], ["g0003", "g0000", "valid"]]);
    expect(await seenBy(runDir, "g0001")).toEqual([]);

    const shown = await seenBy(runDir, "g0003");
    expect(shown.map((a) => [a.id, a.relation])).toEqual([["g0002", "sibling"], ["g0001", "sibling"]]);
    const byId = new Map(generations.map((g) => [g.id, g]));
    for (const a of shown) {
      // Capped to one line of the harness's size, whatever the agent wrote.
      expect(a.summary.length).toBeLessThanOrEqual(ATTEMPT_SUMMARY_CHARS);
      expect(a.summary).not.toMatch(/[\u0000-\u001f\u007f]/);
      expect(a.summary.startsWith(`${a.id} {"kind":"valid"`)).toBe(true);
      // The outcome is the harness's record, not the forged one in the summary.
      const record = byId.get(a.id);
      expect(a.outcome).toEqual({ kind: "valid", score: record?.scores.visible, delta: 0 });
    }
    // The held-out split: the records hold its score, no attempt does.
    expect(byId.get("g0001")?.scores.heldout).not.toBeNull();
    const text = JSON.stringify(shown);
    expect(text).not.toContain(String(byId.get("g0001")?.evaluation?.stages.find((s) => s.stage === "heldout")?.instances[0]?.id));
    expect(Object.keys(shown[0] ?? {}).sort()).toEqual(["id", "outcome", "parent", "relation", "summary"]);

    // The transcript's first line is what the request carried, read back through zod.
    const transcript = parseTranscript(await readFile(generationPaths(runDir, "g0003").transcript, "utf8"));
    expect(transcript.problems).toEqual([]);
    const entry = transcript.entries[0] as AttemptsTranscriptEntry | undefined;
    expect(entry?.kind).toBe("attempts");
    expect(entry?.attempts).toEqual(shown);
    expect(byId.get("g0003")?.attempts).toEqual(["g0002", "g0001"]);
    return { outcome: `3 children valid; g0003 shown 2 attempts: summaries written at over 200,000 characters arrive as one line of ≤ ${ATTEMPT_SUMMARY_CHARS}, outcomes from the records, no held-out data`, containMs: wallMs };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
