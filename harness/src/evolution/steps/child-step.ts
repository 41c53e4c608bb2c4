/**
 * One child, start to end: materialise the parent → the candidate pipeline (self-modify →
 * extract → validate → build) → evaluate → record. The agent misbehaving at any phase is an
 * invalid record, never an exception; an interrupted run records nothing (the child is
 * redone on resume).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { EvolveError } from "../../kernel/index.js";
import { generationPaths, type ArchiveWriter, type GenerationRecord, type PhaseTimings } from "../../archive/index.js";
import type { EvaluationResult } from "../../results/index.js";
import { checkInterrupted, openSolveLlm, type RunContext, type SolveLlm } from "../context/index.js";
import type { Attempt } from "@evolve/contract";
import { childRequest, evaluateTimed, runCandidate, type Candidate, type EvaluationPlan } from "../pipeline/index.js";
import { approvalRequestFor, logApprovalRequest } from "./approval-request.js";
import { buildRecord, recordGeneration } from "./record-generation.js";

/** What the loop decided for one child. */
export interface ChildPlan {
  id: string;
  parent: GenerationRecord;
  /** Root to parent, root first. */
  lineage: readonly GenerationRecord[];
  seed: number;
  /** The first recorded generation with this snapshot hash, if any (duplicates are recorded, not judged). */
  sameTree?: (snapshotHash: string) => GenerationRecord | null;
  /** What the request lists as already tried near the parent (pipeline/attempts.ts); none when absent. */
  attempts?: readonly Attempt[];
  /** How to evaluate the child when valid (pipeline/evaluation-plan.ts); staged, held-out always, when absent. */
  evaluation?: EvaluationPlan;
}

/** Runs one child to its record; returns the record written. */
export async function runChild(ctx: RunContext, writer: ArchiveWriter, plan: ChildPlan): Promise<GenerationRecord> {
  const started = performance.now();
  const { parent, id } = plan;
  if (parent.snapshotHash === null) throw new EvolveError("internal", `parent ${parent.id} has no snapshot`);
  const parentSnapshot = generationPaths(writer.runDir, parent.id).snapshot;
  const work = await mkdtemp(join(ctx.workRoot, `${id}-`));
  // The task agent's model (a task that needs one), shared by the drafts and the evaluation.
  const solveLlm = openSolveLlm(ctx);
  try {
    const t = performance.now();
    const parentBuildDir = await ctx.builds.get(parentSnapshot, parent.snapshotHash);
    const materialise = performance.now() - t;
    checkInterrupted(ctx.signal);
    const candidate = await runCandidate({
      ctx,
      generationId: id,
      parentDir: parentSnapshot,
      source: { kind: "self-modify", parentBuildDir, seed: plan.seed, request: childRequest(ctx, { id, seed: plan.seed }, parent, plan.lineage, plan.attempts), solveLlm },
      workDir: work,
      // The parent's own tree is left to the policy gate, which records it as an empty change.
      sameTree: (hash) => (hash === parent.snapshotHash ? null : (plan.sameTree?.(hash)?.id ?? null)),
      events: writer,
      deferImport: true,
    });
    const timings: PhaseTimings = Object.assign({ materialise }, candidate.timings);
    solveLlm.beginEvaluation();
    // A draft that evaluated this very tree whole: the child's race is read off that run.
    const drafted = candidate.tree === null ? null : (candidate.modified?.draftRunOf(candidate.tree.snapshotHash) ?? null);
    const evaluated =
      candidate.buildDir === null
        ? null
        : await evaluateTimed(
            { ctx, generationId: id, buildDir: candidate.buildDir, importDeferred: candidate.importDeferred, solveLlm, ...(plan.evaluation === undefined ? {} : { plan: plan.evaluation }), ...(drafted === null ? {} : { visibleDone: drafted }) },
            timings,
          );
    solveLlm.close();
    // A load that failed in the first evaluation session is the child's import failure.
    if (evaluated?.failure) candidate.failure = evaluated.failure;
    return await record(ctx, writer, plan, candidate, { evaluation: evaluated?.evaluation ?? null, timings, started, solveLlm });
  } finally {
    solveLlm.close();
    await rm(work, { recursive: true, force: true });
    // The builds of its drafts that it did not become (build-cache.ts).
    await ctx.builds.release(id);
  }
}

/** Settles the engines, builds the record (with an approval request when the policy asks) and writes it. */
async function record(
  ctx: RunContext,
  writer: ArchiveWriter,
  plan: ChildPlan,
  candidate: Candidate,
  more: { evaluation: EvaluationResult | null; timings: PhaseTimings; started: number; solveLlm: SolveLlm },
): Promise<GenerationRecord> {
  const { parent, id } = plan;
  const modified = candidate.modified!;
  // Before anything is written: a child an engine failed under is redone, not recorded.
  const engines = ctx.engines.settle(id);
  const changes = candidate.tree?.changes ?? [];
  const built = buildRecord({
    id,
    parent: parent.id,
    depth: parent.depth + 1,
    failure: candidate.failure,
    evaluation: more.evaluation,
    summary: modified.summary,
    changes,
    usage: modified.usage,
    model: modified.model,
    snapshotHash: candidate.tree?.snapshotHash ?? null,
    seed: plan.seed,
    timings: more.timings,
    started: more.started,
    evaluateCalls: modified.evaluateCalls,
    duplicateOf: candidate.duplicateOf,
    solve: more.solveLlm.usage(),
  });
  // A duplicate is never a parent itself, so it never waits for a person either.
  const approval = built.status.kind === "valid" ? approvalRequestFor(ctx.policy, candidate.failure, changes) : undefined;
  const shown = plan.attempts === undefined || plan.attempts.length === 0 ? built : { ...built, attempts: plan.attempts.map((a) => a.id) };
  const withEngines = engines === undefined ? shown : { ...shown, engines };
  const final = approval === undefined ? withEngines : { ...withEngines, approval };
  const recorded = await recordGeneration(writer, final, {
    snapshotDir: candidate.tree?.dir ?? null,
    // The tree is this child's own scratch (under `work`, removed after): moved into the record, not copied.
    moveSnapshot: true,
    patch: candidate.tree?.patch ?? "",
    transcript: modified.transcript,
    solveTranscript: more.solveLlm.transcript(),
    logs: { "self-modify.stderr": modified.outcome.stderr },
  });
  await logApprovalRequest(writer, recorded);
  return recorded;
}
