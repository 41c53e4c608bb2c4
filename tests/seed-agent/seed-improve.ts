/** Runs a seed-like meta agent offline in a real container, as the harness would, for the seed-agent tests. */
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { ImproveReport } from "@evolve/contract";
import { runImprove, type EvaluateService } from "../../sandbox/src/index.js";
import { type WireJson } from "../../harness/src/kernel/index.js";
import type { TestEngine } from "../support/test-engine.js";
import { readOwnTree } from "../../harness/src/archive/index.js";

export interface SeedImprove {
  agentDir: string;
  buildDir: string;
  /** Folder in which the tree the agent leaves is taken out (a new one below it). */
  workDir: string;
  task: string;
  seed: number;
  request: WireJson;
  onEvaluate?: EvaluateService["answer"];
}

/** `improve` without an LLM; fails the test unless it returned and its tree came out. */
export async function seedImprove(env: TestEngine, o: SeedImprove): Promise<{ report: ImproveReport; tree: ReadonlyMap<string, string>; takeTo: string }> {
  const takeTo = await mkdtemp(join(o.workDir, "take-"));
  const result = await runImprove({
    engine: env.engine,
    image: env.image,
    labels: { session: env.session, phase: "improve" },
    buildDir: o.buildDir,
    agentDir: o.agentDir,
    takeTo,
    timeoutMs: 120_000,
    init: { task: o.task, seed: o.seed, llmAvailable: false, deadline: Date.now() + 100_000, request: o.request },
    ...(o.onEvaluate === undefined ? {} : { evaluate: { answer: o.onEvaluate, unavailable: (reason: string) => ({ outcome: "refused", reason, remaining: 0 }) } }),
  });
  expect(result.end, result.outcome.stderr).toBeNull();
  expect(result.extracted.ok).toBe(true);
  return { report: result.report as ImproveReport, tree: await readOwnTree(takeTo), takeTo };
}
