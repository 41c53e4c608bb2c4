/**
 * One child, start to end: materialise the parent → self-modify → extract → validate →
 * evaluate → record. The agent misbehaving at any phase is an invalid record, never an
 * exception; an interrupted run records nothing (the child is redone on resume).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { EvolveError } from "../../../sandbox/src/index.js";
import { type EvaluationResult, type Failure, failure as fail } from "../results/index.js";
import { diffDirectories, generationPaths, type ArchiveWriter, type DirectoryDiff, type GenerationRecord, type PhaseTimings } from "../archive/index.js";
import { approvalRequestFor, logApprovalRequest } from "./approval-request.js";
import { buildImproveRequest } from "./improve-request.js";
import { buildRecord, recordGeneration } from "./record-generation.js";
import { checkInterrupted, type RunContext } from "./run-context.js";
import { selfModifyStep } from "./self-modify-step.js";
import { judgeTree } from "./judge-tree.js";
import { openSolveLlm } from "./solve-llm.js";

/** What the loop decided for one child. */
export interface ChildPlan {
  id: string;
  parent: GenerationRecord;
  /** Root to parent, root first. */
  lineage: readonly GenerationRecord[];
  seed: number;
  /** The first recorded generation with this snapshot hash, if any (duplicates are recorded, not judged). */
  sameTree?: (snapshotHash: string) => GenerationRecord | null;
}

/** Runs one child to its record; returns the record written. */
export async function runChild(ctx: RunContext, writer: ArchiveWriter, plan: ChildPlan): Promise<GenerationRecord> {
  const started = performance.now();
  const timings: PhaseTimings = {};
  const { parent, id } = plan;
  if (parent.snapshotHash === null) throw new EvolveError("internal", `parent ${parent.id} has no snapshot`);
  const parentSnapshot = generationPaths(writer.runDir, parent.id).snapshot;
  const work = await mkdtemp(join(ctx.workRoot, `${id}-`));
  // The task agent's model (a task that needs one), shared by the drafts and the evaluation.
  const solveLlm = openSolveLlm(ctx);
  try {
    let t = performance.now();
    const parentBuild = await ctx.builds.get(parentSnapshot, parent.snapshotHash);
    const takeTo = join(work, "tree");
    timings.materialise = performance.now() - t;
    checkInterrupted(ctx.signal);

    const modified = await selfModifyStep({
      ctx,
      generationId: id,
      parentSnapshotDir: parentSnapshot,
      parentBuildDir: parentBuild,
      takeTo,
      seed: plan.seed,
      solveLlm,
      request: (llmTokens, deadline) =>
        buildImproveRequest({
          manifest: ctx.task.manifest,
          generation: { id, parent: parent.id, depth: parent.depth + 1 },
          seed: plan.seed,
          parent,
          lineage: plan.lineage,
          llmTokens,
          deadline,
          evaluations: ctx.evaluations,
        }),
    });
    timings.selfModify = modified.durationMs;
    checkInterrupted(ctx.signal);
    await writer.appendEvent({
      type: "self_modified",
      at: new Date().toISOString(),
      generation: id,
      ok: modified.failure === null,
      error: modified.failure?.message ?? null,
      durationMs: modified.durationMs,
    });

    let failure: Failure | null = modified.failure;
    t = performance.now();
    let diff: Extract<DirectoryDiff, { ok: true }> | null = null;
    if (modified.treeTaken) {
      const read = await diffDirectories(parentSnapshot, takeTo);
      if (read.ok) diff = read;
      else failure ??= fail("extract", "unreadable_tree", read.reason);
    }
    timings.extract = performance.now() - t;

    let evaluation: EvaluationResult | null = null;
    if (failure === null && diff === null) failure = fail("extract", "no_tree", "the meta agent's tree did not come back");
    // The parent's own tree is left to the policy gate, which records it as an empty change.
    const original = failure === null && diff !== null && diff.snapshotHash !== parent.snapshotHash ? (plan.sameTree?.(diff.snapshotHash) ?? null) : null;
    solveLlm.beginEvaluation();
    if (failure === null && diff !== null && original === null) {
      ({ failure, evaluation } = await judgeTree({
        ctx,
        writer,
        generationId: id,
        parentDir: parentSnapshot,
        childDir: takeTo,
        workDir: work,
        snapshotHash: diff.snapshotHash,
        timings,
        solveLlm,
      }));
    }

    solveLlm.close();
    // Before anything is written: a child an engine failed under is redone, not recorded.
    const engines = ctx.engines.settle(id);
    const built = buildRecord({
      id,
      parent: parent.id,
      depth: parent.depth + 1,
      failure,
      evaluation,
      summary: modified.summary,
      changes: diff?.changes ?? [],
      usage: modified.usage,
      model: modified.model,
      snapshotHash: diff?.snapshotHash ?? null,
      seed: plan.seed,
      timings,
      started,
      evaluateCalls: modified.evaluateCalls,
      duplicateOf: original?.id ?? null,
      solve: solveLlm.usage(),
    });
    // A duplicate is never a parent itself, so it never waits for a person either.
    const approval = built.status.kind === "valid" ? approvalRequestFor(ctx.policy, failure, diff?.changes ?? []) : undefined;
    const withEngines = engines === undefined ? built : { ...built, engines };
    const record = approval === undefined ? withEngines : { ...withEngines, approval };
    const recorded = await recordGeneration(writer, record, {
      snapshotDir: diff === null ? null : takeTo,
      patch: diff?.patch ?? "",
      transcript: modified.transcript,
      solveTranscript: solveLlm.transcript(),
      logs: { "self-modify.stderr": modified.outcome.stderr },
    });
    await logApprovalRequest(writer, recorded);
    return recorded;
  } finally {
    solveLlm.close();
    await rm(work, { recursive: true, force: true });
  }
}
