/**
 * One test generation of an arena run, up to its proposals: the parent tester's meta agent
 * rewrites a copy of its tree (request.role "tester") through the candidate pipeline, like a
 * code child, and its `propose` runs in a fresh container. t0000 is the seed's tree as it
 * is: it only proposes. What it proposes is judged by the test phase (arena-rounds/). The
 * agent misbehaving at any step is data in the result, never an exception.
 */
import type { ImproveRequest, ProposeRequest } from "@evolve/contract";
import { runPropose } from "../../../../sandbox/src/index.js";
import { toWire } from "../../kernel/index.js";
import type { ChangedFile, PhaseTimings } from "../../archive/index.js";
import type { ProposeCall, TesterRecord } from "../../arena/index.js";
import type { BrokerUsage, TranscriptEntry } from "../../llm/index.js";
import { failure as fail, type Failure } from "../../results/index.js";
import { oneLine } from "../../text/index.js";
import { treeHasTester } from "../../validation/index.js";
import { checkInterrupted, containerLabels, generationBroker, type CandidateContext } from "../context/index.js";
import { runCandidate } from "../pipeline/index.js";

/** Wall clock of one propose call; a test agent's work is small next to a code agent's. */
export const PROPOSE_TIMEOUT_MS = 60_000;
/** The most a propose answer may be, as JSON, before the container is stopped. */
export const PROPOSE_OUTPUT_CAP = 2 * 1024 * 1024;

const NO_USAGE: BrokerUsage = { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, estimated: false };

export interface TesterPlan {
  id: string;
  round: number;
  seed: number;
  /** The parent test generation's record and tree; for t0000, null and the seed's tree. */
  parent: TesterRecord | null;
  parentSnapshotDir: string;
  parentSnapshotHash: string;
  /** Builds the meta agent's request (tester role) once the broker knows the tokens left. */
  improveRequest: (llmTokens: number | null, deadline: number) => ImproveRequest;
  /** What the tester is shown when it proposes. */
  proposeRequest: ProposeRequest;
  /** A scratch folder of this test generation. */
  workDir: string;
}

/** Everything about a test generation except what became of its proposals. */
export interface TesterOutcome {
  record: Omit<TesterRecord, "proposals" | "admitted" | "createdAt">;
  /** What `propose` returned, unjudged (empty when it failed or the tree was invalid). */
  proposals: unknown[];
  snapshotDir: string | null;
  patch: string;
  transcript: TranscriptEntry[];
  logs: Record<string, string>;
}

type Ctx = CandidateContext;

/** A test generation's tree as the pipeline left it, before it proposes. */
interface TesterTree {
  failure: Failure | null;
  tree: { dir: string; hash: string } | null;
  buildDir: string | null;
  changes: ChangedFile[];
  patch: string;
  summary: string | null;
  usage: BrokerUsage;
  transcript: TranscriptEntry[];
  logs: Record<string, string>;
  timings: PhaseTimings;
}

export async function runTester(ctx: Ctx, plan: TesterPlan): Promise<TesterOutcome> {
  const started = performance.now();
  const made = plan.parent === null ? await seedTester(ctx, plan) : await rewrittenTester(ctx, plan);
  // The seed's tree (t0000) is not validated as a tester: its tester/ must at least be there.
  if (made.failure === null && made.tree !== null && !(await treeHasTester(made.tree.dir))) {
    made.failure = fail("signature", "missing_export", "tester/index.ts is missing: a test generation must export propose from it");
  }
  const proposed = made.failure === null && made.buildDir !== null ? await propose(ctx, plan, made.buildDir, made.timings) : null;
  const usage = proposed === null ? made.usage : addUsage(made.usage, proposed.usage);
  made.timings.total = performance.now() - started;
  return {
    record: {
      schemaVersion: 1,
      id: plan.id,
      parent: plan.parent?.id ?? null,
      round: plan.round,
      status: made.failure === null ? { kind: "valid" } : { kind: "invalid", ...made.failure },
      summary: made.summary,
      changedFiles: made.changes,
      snapshotHash: made.tree?.hash ?? null,
      seed: plan.seed,
      tokens: { prompt: usage.promptTokens, completion: usage.completionTokens },
      costUsd: usage.costUsd,
      model: ctx.llm.setup.available ? ctx.llm.setup.model : null,
      timings: made.timings,
      propose: proposed?.call ?? null,
    },
    proposals: proposed?.proposals ?? [],
    snapshotDir: made.tree?.dir ?? null,
    patch: made.patch,
    transcript: [...made.transcript, ...(proposed?.transcript ?? [])],
    logs: { ...made.logs, ...(proposed === null ? {} : { "propose.stderr": proposed.stderr }) },
  };
}

/** t0000: the seed's tree as it is, compiled (it was validated as g0000). */
async function seedTester(ctx: Ctx, plan: TesterPlan): Promise<TesterTree> {
  const buildDir = await ctx.builds.get(plan.parentSnapshotDir, plan.parentSnapshotHash);
  const tree = { dir: plan.parentSnapshotDir, hash: plan.parentSnapshotHash };
  return { failure: null, tree, buildDir, changes: [], patch: "", summary: "the seed's tester", usage: NO_USAGE, transcript: [], logs: {}, timings: {} };
}

/** A rewrite of the parent tester through the candidate pipeline. A tester's meta agent cannot call ctx.evaluate: drafts are judged by proposals, not by solve. */
async function rewrittenTester(ctx: Ctx, plan: TesterPlan): Promise<TesterTree> {
  const parentBuildDir = await ctx.builds.get(plan.parentSnapshotDir, plan.parentSnapshotHash);
  const candidate = await runCandidate({
    ctx,
    generationId: plan.id,
    parentDir: plan.parentSnapshotDir,
    source: { kind: "self-modify", parentBuildDir, seed: plan.seed, request: plan.improveRequest, evaluations: 0 },
    workDir: plan.workDir,
    requireTester: true,
  });
  const modified = candidate.modified!;
  const timings: PhaseTimings = { ...candidate.timings };
  if (candidate.checkMs !== null) timings["validate"] = candidate.checkMs;
  return {
    failure: candidate.failure,
    tree: candidate.tree === null ? null : { dir: candidate.tree.dir, hash: candidate.tree.snapshotHash },
    buildDir: candidate.buildDir,
    changes: candidate.tree?.changes ?? [],
    patch: candidate.tree?.patch ?? "",
    summary: modified.summary,
    usage: modified.usage,
    transcript: modified.transcript,
    logs: { "self-modify.stderr": modified.outcome.stderr },
    timings,
  };
}

/** Calls `propose` once in a fresh container, its LLM calls through a broker of this test generation. */
async function propose(ctx: Ctx, plan: TesterPlan, buildDir: string, timings: PhaseTimings) {
  const broker = generationBroker(ctx);
  const t = performance.now();
  let answer: Awaited<ReturnType<typeof runPropose>>;
  try {
    answer = await runPropose({
      engine: ctx.sandbox.engine,
      image: ctx.sandbox.image,
      buildDir,
      labels: containerLabels(ctx, plan.id, "propose"),
      runtime: ctx.sandbox.runtime,
      task: ctx.task.manifest.name,
      seed: plan.seed,
      llmAvailable: ctx.llm.setup.available,
      onLlm: broker.onLlm,
      request: toWire(plan.proposeRequest),
      timeoutMs: PROPOSE_TIMEOUT_MS,
      outputCapBytes: PROPOSE_OUTPUT_CAP,
    });
  } finally {
    broker.close();
  }
  const durationMs = performance.now() - t;
  timings.evaluate = durationMs;
  checkInterrupted(ctx.signal);
  const usage = { usage: broker.usage(), transcript: broker.transcript(), stderr: answer.stderr };
  if (!answer.ok) return { call: { ok: false, reason: oneLine(`${answer.kind}: ${answer.reason}`, 500), durationMs } satisfies ProposeCall, proposals: [], ...usage };
  if (!Array.isArray(answer.value)) {
    return { call: { ok: false, reason: `propose returned ${answer.value === null ? "null" : typeof answer.value}, not an array of proposals`, durationMs } satisfies ProposeCall, proposals: [], ...usage };
  }
  return { call: { ok: true, returned: answer.value.length, durationMs } satisfies ProposeCall, proposals: answer.value as unknown[], ...usage };
}

function addUsage(a: BrokerUsage, b: BrokerUsage): BrokerUsage {
  return { ...a, calls: a.calls + b.calls, promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd };
}
