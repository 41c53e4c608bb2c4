/**
 * ctx.evaluate abused from inside the real loop (`startRun`, sec-sum task, 2 evaluations per
 * generation): malformed requests, unknown and held-out ids, huge lists, duplicates, six
 * calls at once and a loop of 300. Every call must get a refusal value (never a rejection,
 * never a crash), only the count runs, held-out instances never run nor show, a held-out id
 * is refused in the same words as an unknown one, the transcript stays bounded, and the child
 * of a tree no draft evaluated is scored on its own answers, never on a draft's.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { generationPaths } from "../../../harness/src/archive/index.js";
import { startRun } from "../../../harness/src/evolution/index.js";
import { parseTranscript, type EvaluateTranscriptEntry } from "../../../harness/src/llm/index.js";
import { memorySink, readConsistentRun } from "../../evolution/run-helpers.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const AGENT = new URL("../fixtures/evaluate-abuse-agent/", import.meta.url).pathname;
const TASK = new URL("../fixtures/sec-sum/", import.meta.url).pathname;
const HELDOUT_ID = "heldout-sec-1";
/** Calls the agent makes: 10 malformed, 4 bad ids, 2 huge lists, 6 at once, 300 in a loop. */
const CALLS = 10 + 4 + 2 + 6 + 300;

function reasonOf(entry: EvaluateTranscriptEntry | undefined): string {
  return String((entry?.result as { reason?: unknown } | undefined)?.reason ?? "");
}

export async function evaluateAbuse(c: CaseContext): Promise<CaseVerdict> {
  const out = await mkdtemp(join(tmpdir(), "evolve-sec-evaluate-"));
  const runId = `sec-eval-${c.runtime}-${randomBytes(3).toString("hex")}`;
  try {
    const started = Date.now();
    const summary = await startRun(
      // The default improve timeout: the drafts then get the task's whole evaluation limit, so
      // only the tree's hash stands between a draft's run and the child's race.
      { task: TASK, agent: AGENT, generations: 1, workers: 1, seed: 9, out, runId, runtime: c.runtime, evaluations: 2, improveTimeoutMs: 180_000 },
      { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: c.env.engine, session: c.session },
    );
    const wallMs = Date.now() - started;
    const runDir = join(out, runId);
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);
    expect(summary.end).toBe("finished");
    const child = generations.find((g) => g.id === "g0001");
    expect(child?.status.kind, JSON.stringify(child?.status)).toBe("valid");
    // What the agent got back, per group: every call a value, only two evaluations.
    expect(child?.summary).toBe("R10 R4 R2 E2R4 R300");
    // Each draft's whole visible split in one session, as a race runs it, the import check in it (it loads the whole agent first).
    expect(child?.evaluateCalls).toMatchObject({ calls: CALLS, counted: 2, containers: 2 });
    // The drafts scored right sums of another tree; the child is raced on its own wrong ones.
    expect(child?.evaluation?.visibleFromDraft).toBeUndefined();
    const childVisible = (child?.evaluation?.stages ?? []).flatMap((st) => st.instances.filter((i) => i.split === "visible").map((i) => i.score));
    expect(childVisible.length).toBeGreaterThan(0);
    expect(childVisible.every((score) => score === 0)).toBe(true);

    const transcript = parseTranscript(await readFile(generationPaths(runDir, "g0001").transcript, "utf8"));
    expect(transcript.problems).toEqual([]);
    const calls = transcript.entries.filter((e): e is EvaluateTranscriptEntry => e.kind === "evaluate");
    // The two that ran, and refusals only up to the cap: a loop cannot grow the record.
    expect(calls.filter((e) => e.result.outcome === "evaluated")).toHaveLength(2);
    expect(calls.filter((e) => e.result.outcome === "refused")).toHaveLength(20);
    expect(calls.every((e) => e.result.remaining >= 0 && e.result.remaining <= 2)).toBe(true);
    for (const e of calls.filter((x) => x.result.outcome === "refused")) expect(e.containers).toBe(0);
    for (const e of calls.slice(0, 10)) expect(reasonOf(e)).toMatch(/^malformed request: .*expected \{ instances\?/);

    // Held-out ids: refused exactly as unknown ids are, and nothing of the split came back.
    const byRequest = (request: string): EvaluateTranscriptEntry | undefined => calls.find((e) => e.request === request);
    const unknown = reasonOf(byRequest('1 ids: "nope"'));
    const heldout = reasonOf(byRequest(`1 ids: "${HELDOUT_ID}"`));
    expect(unknown).toMatch(/^not visible instance ids: "nope"; the visible instances are "after-1", "after-2"$/);
    expect(heldout.replace(`"${HELDOUT_ID}"`, '"nope"')).toBe(unknown);
    expect(reasonOf(byRequest(`2 ids: "after-1", "${HELDOUT_ID}"`))).toMatch(/^not visible instance ids: "heldout-sec-1";/);
    expect(reasonOf(byRequest('2 ids: "after-1", "after-1"'))).toMatch(/listed more than once/);
    expect(reasonOf(calls.find((e) => e.request === null && reasonOf(e).startsWith("too many")))).toMatch(/^too many instance ids \(100000\)/);
    expect(reasonOf(byRequest('1000 ids: "x0", "x1", "x2", "x3", "x4" (+995 more)'))).toMatch(/^not visible instance ids: "x0"/);
    const evaluated = calls.filter((e) => e.result.outcome === "evaluated");
    for (const e of evaluated) {
      const ids = ((e.result as { instances?: { id: string }[] }).instances ?? []).map((i) => i.id);
      expect(ids).toEqual(["after-1", "after-2"]);
    }
    expect(JSON.stringify(evaluated)).not.toContain(HELDOUT_ID);
    return {
      outcome: `${CALLS} calls: 2 evaluated (the count), ${CALLS - 2} refused as values; held-out id refused as unknown; ${calls.length} transcript lines; a changed tree raced on its own answers`,
      containMs: wallMs,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
