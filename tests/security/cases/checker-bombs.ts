/**
 * Attack class 15, host exhaustion through the checks: a hostile meta agent in the real loop
 * writes one type bomb per generation (tests/security/support/type-bombs.ts), then fills its
 * tree to every policy cap with all-new lines (the largest diff the caps allow), then goes a
 * few bytes over. Each child must be recorded invalid with its code while the run goes on to
 * the end, the harness process stays within its memory budget (the checker is a process of
 * its own), and no check worker, container or volume is left behind.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { join } from "node:path";
import { expect } from "vitest";
import { generationPaths } from "../../../harness/src/archive/index.js";
import { startRun } from "../../../harness/src/evolution/index.js";
import { memorySink, readConsistentRun } from "../../evolution/run-helpers.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";
import { deepNesting, denseDeclarations, exponentialInstantiation, hugeUnions, recursionUnderTheLimit, type BombStep } from "../support/type-bombs.js";

const AGENT = new URL("../fixtures/checker-bomb-agent/", import.meta.url).pathname;

/** Check limits of this run: low enough that every allocation bomb meets the heap cap well before the clock. */
const CHECK_MEMORY_MB = 320;
const CHECK_TIMEOUT_MS = 120_000;
/**
 * How much the harness process's JavaScript heap (here: the test's own process) may grow while
 * the bombs go off in its check worker, a separate process with its own cap. Checks inside the
 * harness's process would add up to the checker's cap (320 MiB) and break it. The heap's
 * growth from a full collection is measured, not the RSS: what the suite's earlier cases left
 * in this process (garbage, and pages V8 keeps) put the RSS at 330–355 MB on one machine and
 * 595–612 MB on another with the same code, and could absorb growth without showing it.
 */
const HARNESS_HEAP_GROWTH_BUDGET_MB = 256;

const files = (bomb: typeof exponentialInstantiation): BombStep => ({ kind: "files", bomb: bomb.name, files: bomb.files });

/** Generation → what the meta agent does, and the verdict the harness must record. */
const PLAN: readonly { id: string; step: BombStep; what: string; expected: { stage: string; code: string } }[] = [
  { id: "g0001", step: files(exponentialInstantiation), what: exponentialInstantiation.name, expected: { stage: "compile", code: "compile_memory" } },
  { id: "g0002", step: files(recursionUnderTheLimit), what: recursionUnderTheLimit.name, expected: { stage: "compile", code: "compile_memory" } },
  { id: "g0003", step: files(hugeUnions), what: hugeUnions.name, expected: { stage: "compile", code: "compile_memory" } },
  { id: "g0004", step: files(denseDeclarations), what: denseDeclarations.name, expected: { stage: "compile", code: "compile_memory" } },
  { id: "g0005", step: files(deepNesting), what: deepNesting.name, expected: { stage: "compile", code: "compile_crash" } },
  { id: "g0006", step: { kind: "fill", overBytes: 0 }, what: "tree at every policy cap, all lines new", expected: { stage: "compile", code: "compile_memory" } },
  { id: "g0007", step: { kind: "fill", overBytes: 1 }, what: "the same, one byte over the size cap", expected: { stage: "policy", code: "tree_too_large" } },
];

/** A full garbage collection now (V8's own, exposed for the call): earlier cases' garbage out of the baseline. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** A copy of the fixture agent with the plan written into meta/plan.ts. */
async function materialiseAgent(scratch: string): Promise<string> {
  const dir = join(scratch, "agent");
  await cp(AGENT, dir, { recursive: true });
  const planFile = join(dir, "meta", "plan.ts");
  const placeholder = await readFile(planFile, "utf8");
  const plan = Object.fromEntries(PLAN.map((p) => [p.id, p.step]));
  await writeFile(planFile, placeholder.replace("export const PLAN: Record<string, Step> = {};", `export const PLAN: Record<string, Step> = ${JSON.stringify(plan)};`));
  return dir;
}

/** Check-worker processes whose parent is this process: one that outlived its run would be here. */
function checkWorkers(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("check-worker-entry")) pids.push(Number(entry));
    } catch {
      // the process ended while being read
    }
  }
  return pids;
}

export async function checkerBombs(c: CaseContext): Promise<CaseVerdict> {
  const scratch = await mkdtemp(join(tmpdir(), "evolve-sec-bombs-"));
  const runId = `sec-bombs-${randomBytes(3).toString("hex")}`;
  collectGarbage();
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 100);
  try {
    const agent = await materialiseAgent(scratch);
    const started = Date.now();
    const summary = await startRun(
      {
        task: "email-validation",
        agent,
        generations: PLAN.length,
        workers: 1,
        seed: 3,
        out: scratch,
        runId,
        runtime: c.runtime,
        checkMemoryMb: CHECK_MEMORY_MB,
        checkTimeoutMs: CHECK_TIMEOUT_MS,
      },
      { sink: memorySink(), signal: new AbortController().signal, env: {}, engine: c.env.engine, session: c.session },
    );
    const wallMs = Date.now() - started;
    expect(summary.end).toBe("finished");
    const runDir = join(scratch, runId);
    const { generations, problems } = await readConsistentRun(runDir);
    expect(problems).toEqual([]);
    expect(generations.map((g) => g.id)).toEqual(["g0000", ...PLAN.map((p) => p.id)]);
    const byId = new Map(generations.map((g) => [g.id, g]));
    expect(byId.get("g0000")?.status.kind).toBe("valid");
    const rows: string[] = [];
    for (const p of PLAN) {
      const g = byId.get(p.id)!;
      expect(g.parent, `${p.id}'s parent`).toBe("g0000");
      expect(g.status, `${p.id}: ${p.what}`).toMatchObject({ kind: "invalid", ...p.expected });
      const checkMs = (g.timings.policy ?? 0) + (g.timings.compile ?? 0) + (g.timings.signature ?? 0);
      rows.push(`${p.what} → ${p.expected.code} in ${(checkMs / 1000).toFixed(1)} s`);
    }
    // The maximal tree's patch is recorded whole: every added line of ~8 MiB of declarations.
    expect((await stat(join(generationPaths(runDir, "g0006").dir, "patch.diff"))).size).toBeGreaterThan(8 * 1024 * 1024);
    const run = JSON.parse(await readFile(join(runDir, "run.json"), "utf8")) as { config: { limits: Record<string, unknown> } };
    expect(run.config.limits).toMatchObject({ checkMemoryMb: CHECK_MEMORY_MB, checkTimeoutMs: CHECK_TIMEOUT_MS });
    // The run closed its check worker: no check process of ours is left.
    expect(checkWorkers()).toEqual([]);
    const mb = (bytes: number): number => Math.round(bytes / (1024 * 1024));
    const heapGrowthMb = mb(peakHeap - start.heapUsed);
    expect(heapGrowthMb, `growth of the harness process's heap (${mb(start.heapUsed)} MB at the start)`).toBeLessThan(HARNESS_HEAP_GROWTH_BUDGET_MB);
    return {
      outcome: `run finished, ${PLAN.length}/${PLAN.length} children invalid with their codes (${rows.join("; ")}); harness heap grew by ${heapGrowthMb} MB (budget ${HARNESS_HEAP_GROWTH_BUDGET_MB}; peak RSS ${mb(peakRss)} MB; the checker is its own process, capped at ${CHECK_MEMORY_MB} MiB)`,
      containMs: wallMs,
    };
  } finally {
    clearInterval(sampler);
    await rm(scratch, { recursive: true, force: true });
  }
}
