/**
 * One test generation of an arena run, up to its proposals: the parent tester's meta agent
 * rewrites a copy of its tree (request.role "tester"), the tree is extracted and validated
 * like a code child's, and its `propose` runs in a fresh container. t0000 is the seed's tree
 * as it is: it only proposes. What it proposes is judged by the test phase (arena-tests-phase.ts).
 * The agent misbehaving at any step is data in the result, never an exception.
 */
import { join } from "node:path";
import type { ImproveRequest, ProposeRequest } from "@evolve/contract";
import { runPropose } from "../../../../sandbox/src/index.js";
import { type WireJson } from "../../kernel/index.js";
import { diffDirectories, type ChangedFile, type PhaseTimings } from "../../archive/index.js";
import type { ProposeCall, TesterRecord } from "../../arena/index.js";
import { createGenerationBroker, type BrokerUsage, type TranscriptEntry } from "../../llm/index.js";
import { failure as fail, type Failure } from "../../results/index.js";
import { oneLine } from "../../text/index.js";
import { treeHasTester } from "../../validation/index.js";
import { checkInterrupted, containerLabels, type RunContext } from "../context/index.js";
import { selfModifyStep } from "../pipeline/index.js";
import { validateStep } from "../pipeline/index.js";

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

type Ctx = Pick<RunContext, "sandbox" | "llm" | "task" | "runId" | "validator" | "evaluationSeed" | "evaluations" | "workRoot" | "signal" | "policy" | "builds">;

export async function runTester(ctx: Ctx, plan: TesterPlan): Promise<TesterOutcome> {
  const started = performance.now();
  const timings: PhaseTimings = {};
  let failure: Failure | null = null;
  // The tree this test generation is: the seed's for t0000, else what the meta agent left (null when nothing came back).
  let tree: { dir: string; hash: string } | null = plan.parent === null ? { dir: plan.parentSnapshotDir, hash: plan.parentSnapshotHash } : null;
  let changes: ChangedFile[] = [];
  let patch = "";
  let summary: string | null = plan.parent === null ? "the seed's tester" : null;
  let usage = NO_USAGE;
  let transcript: TranscriptEntry[] = [];
  const logs: Record<string, string> = {};
  let buildDir = await ctx.builds.get(plan.parentSnapshotDir, plan.parentSnapshotHash);

  if (plan.parent !== null) {
    const takeTo = join(plan.workDir, "tree");
    // A tester's meta agent cannot call ctx.evaluate: drafts are judged by proposals, not by solve.
    const modified = await selfModifyStep({
      ctx: { ...ctx, evaluations: 0 },
      generationId: plan.id,
      parentSnapshotDir: plan.parentSnapshotDir,
      parentBuildDir: buildDir,
      takeTo,
      seed: plan.seed,
      request: plan.improveRequest,
    });
    timings.selfModify = modified.durationMs;
    summary = modified.summary;
    usage = modified.usage;
    transcript = modified.transcript;
    logs["self-modify.stderr"] = modified.outcome.stderr;
    failure = modified.failure;
    checkInterrupted(ctx.signal);
    if (failure === null) {
      const read = await diffDirectories(plan.parentSnapshotDir, takeTo);
      if (!read.ok) failure = fail("extract", "unreadable_tree", read.reason);
      else {
        tree = { dir: takeTo, hash: read.snapshotHash };
        changes = read.changes;
        patch = read.patch;
      }
    }
    if (failure === null) {
      const t = performance.now();
      const built = join(plan.workDir, "build");
      const validated = await validateStep({ ctx, generationId: plan.id, parentDir: plan.parentSnapshotDir, childDir: takeTo, buildDir: built, requireTester: true });
      Object.assign(timings, validated.timings);
      timings.validate = performance.now() - t;
      checkInterrupted(ctx.signal);
      failure = validated.failure;
      if (failure === null && tree !== null) buildDir = await ctx.builds.adopt(tree.hash, built);
    }
  }
  // The seed's tree (t0000) is not validated as a tester: its tester/ must at least be there.
  if (failure === null && tree !== null && !(await treeHasTester(tree.dir))) {
    failure = fail("signature", "missing_export", "tester/index.ts is missing: a test generation must export propose from it");
  }

  let propose: ProposeCall | null = null;
  let proposals: unknown[] = [];
  if (failure === null) {
    const broker = createGenerationBroker({
      setup: ctx.llm.setup,
      runLedger: ctx.llm.runLedger,
      generationLimits: ctx.llm.generationLimits,
      ...(ctx.llm.port === undefined ? {} : { port: ctx.llm.port }),
    });
    const t = performance.now();
    try {
      const answer = await runPropose({
        engine: ctx.sandbox.engine,
        image: ctx.sandbox.image,
        buildDir,
        labels: containerLabels(ctx, plan.id, "propose"),
        runtime: ctx.sandbox.runtime,
        task: ctx.task.manifest.name,
        seed: plan.seed,
        llmAvailable: ctx.llm.setup.available,
        onLlm: broker.onLlm,
        request: plan.proposeRequest as unknown as WireJson,
        timeoutMs: PROPOSE_TIMEOUT_MS,
        outputCapBytes: PROPOSE_OUTPUT_CAP,
      });
      logs["propose.stderr"] = answer.stderr;
      const durationMs = performance.now() - t;
      if (!answer.ok) propose = { ok: false, reason: oneLine(`${answer.kind}: ${answer.reason}`, 500), durationMs };
      else if (!Array.isArray(answer.value)) propose = { ok: false, reason: `propose returned ${answer.value === null ? "null" : typeof answer.value}, not an array of proposals`, durationMs };
      else {
        proposals = answer.value;
        propose = { ok: true, returned: proposals.length, durationMs };
      }
    } finally {
      broker.close();
      const spent = broker.usage();
      usage = { ...usage, calls: usage.calls + spent.calls, promptTokens: usage.promptTokens + spent.promptTokens, completionTokens: usage.completionTokens + spent.completionTokens, costUsd: usage.costUsd === null || spent.costUsd === null ? null : usage.costUsd + spent.costUsd };
      transcript = [...transcript, ...broker.transcript()];
    }
    timings.evaluate = performance.now() - t;
    checkInterrupted(ctx.signal);
  }

  timings.total = performance.now() - started;
  return {
    record: {
      schemaVersion: 1,
      id: plan.id,
      parent: plan.parent?.id ?? null,
      round: plan.round,
      status: failure === null ? { kind: "valid" } : { kind: "invalid", ...failure },
      summary,
      changedFiles: changes,
      snapshotHash: tree?.hash ?? null,
      seed: plan.seed,
      tokens: { prompt: usage.promptTokens, completion: usage.completionTokens },
      costUsd: usage.costUsd,
      model: ctx.llm.setup.available ? ctx.llm.setup.model : null,
      timings,
      propose,
    },
    proposals,
    snapshotDir: tree?.dir ?? null,
    patch,
    transcript,
    logs,
  };
}

