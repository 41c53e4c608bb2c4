/**
 * One ctx.evaluate draft: the meta agent's workspace as it is now goes through the candidate
 * pipeline (taken out, checked against the parent like a child, built) and is evaluated on
 * visible instances in fresh containers, on the run's evaluation seed. The answer is the
 * visible feedback only, with no host path in it.
 */
import { homedir, tmpdir } from "node:os";
import type { EvaluateResult } from "@evolve/contract";
import type { LiveWorkspace } from "../../../../sandbox/src/index.js";
import { evaluateCandidate, evaluateImported, raceOrder, type EvaluateOptions, type StageRun } from "../../evaluation/index.js";
import type { EvaluateTranscriptEntry } from "../../llm/index.js";
import { visibleComplete, type EvaluationResult, type Failure } from "../../results/index.js";
import { PACKAGE_ROOT } from "../../kernel/index.js";
import { capText } from "../../text/index.js";
import { NO_SOLVE_LLM, checkKey, containerLabels, countingEngine, type CandidateContext, type SolveLlm } from "../context/index.js";
import { workspaceCandidate } from "./tree-candidate.js";
import { importGateOf } from "./evaluate-step.js";
import type { DraftPlan } from "./draft-request.js";
import { visibleFeedback } from "./improve-request.js";

export const MESSAGE_CHARS = 2_000;

export type DraftContext = CandidateContext;

export interface DraftRun {
  ctx: DraftContext;
  generationId: string;
  parentSnapshotDir: string;
  /** The meta agent's deadline (epoch ms): instances stop starting at it. */
  deadline: number;
  plan: Extract<DraftPlan, { ok: true }>;
  workspace: LiveWorkspace;
  /** A new scratch folder of this draft. */
  dir: string;
  /** Filled with the draft's costs as it goes. */
  entry: EvaluateTranscriptEntry;
  /** Calls left, for the answer. */
  remaining: () => number;
  /** The task agent's model while the draft is evaluated (a task that needs one): the generation's. */
  solveLlm?: SolveLlm;
  /** Takes a whole run of the visible split in race order that the child of this tree may read its race off (see reusableRun). */
  keepWhole?: (snapshotHash: string, run: StageRun) => void;
}

/** Whether the draft asks for the whole visible split (named, or every id listed). */
function wholeVisible(plan: DraftRun["plan"], task: DraftContext["task"]): boolean {
  if (plan.kind === "visible") return true;
  if (plan.kind !== "subset" || plan.subset.length !== task.visible.length) return false;
  const listed = new Set(plan.subset.map((i) => i.id));
  return task.visible.every((i) => listed.has(i.id));
}

/**
 * A check's message without the host's folders in it (a compiler message can name a file
 * outside the tree by a relative path that climbs into them): no host path reaches a container.
 */
function withoutHostPaths(message: string, dirs: readonly string[]): string {
  let text = message;
  for (const dir of [...dirs, PACKAGE_ROOT, tmpdir(), homedir()].sort((a, b) => b.length - a.length)) {
    if (dir.length < 2) continue;
    text = text.replaceAll(dir, "<host>").replaceAll(dir.slice(1), "<host>");
  }
  return text;
}

/** Takes, checks and evaluates the draft. */
export async function runDraft(run: DraftRun): Promise<EvaluateResult> {
  const { ctx, entry } = run;
  const counted = countingEngine(ctx.sandbox.engine);
  const countedCtx = { ...ctx, sandbox: { ...ctx.sandbox, engine: counted.engine } };
  try {
    const candidate = await workspaceCandidate(
      {
        ctx: countedCtx,
        generationId: run.generationId,
        parentDir: run.parentSnapshotDir,
        workDir: run.dir,
        phase: "draft-validate",
        // Its import gate runs in its evaluation's first session: one container fewer per draft.
        deferImport: true,
        // Most drafts are never a child: the build goes when the generation is over, unless a child took it.
        heldBy: run.generationId,
      },
      run.workspace,
    );
    entry.timings.extract = candidate.timings.extract ?? 0;
    if (candidate.checkMs !== null) entry.timings.checks = candidate.checkMs;
    entry.snapshotHash = candidate.tree?.snapshotHash ?? null;
    if (candidate.failure !== null || candidate.buildDir === null) return invalid(run, candidate.failure);
    const t = performance.now();
    const whole = wholeVisible(run.plan, ctx.task);
    const options = draftEvaluation(run, candidate.buildDir, counted.engine, whole);
    let evaluation;
    if (candidate.importDeferred) {
      const imported = await evaluateImported(options, importGateOf(ctx.sandbox, candidate.buildDir));
      if (imported.failure !== null) return invalid(run, imported.failure);
      // Every gate passed: the child that keeps this tree takes its checks and build (build-cache.ts).
      ctx.builds.markChecked(checkKey(run.parentSnapshotDir, false), candidate.tree!.snapshotHash);
      evaluation = imported.evaluation;
    } else {
      evaluation = await evaluateCandidate(options);
    }
    entry.timings.evaluate = performance.now() - t;
    const reusable = whole ? reusableRun(run.ctx.task, options, evaluation) : null;
    if (reusable !== null) run.keepWhole?.(candidate.tree!.snapshotHash, reusable);
    const { instances, stderr } = visibleFeedback(evaluation.stages);
    return { outcome: "evaluated", score: evaluation.visibleScore ?? 0, instances, stderr, remaining: run.remaining() };
  } finally {
    entry.containers = counted.started();
  }
}

/**
 * The run of a whole-visible draft (in race order) when its tree's child may read its race
 * off it: under the task's own whole-evaluation limit (not cut by the meta agent's deadline),
 * every instance scored, and no model at solve time (a child's solve calls are its own,
 * replayed from its own transcript). Null otherwise.
 */
function reusableRun(task: DraftContext["task"], options: EvaluateOptions, evaluation: EvaluationResult): StageRun | null {
  const stage = evaluation.stages[0];
  if (options.llmAvailable === true || evaluation.stages.length !== 1 || stage === undefined) return null;
  if (options.evaluationTimeoutMs !== task.manifest.evaluationTimeoutMs || !visibleComplete(evaluation)) return null;
  return { result: stage, computeMs: evaluation.computeMs };
}

/** The draft's evaluation: visible instances only, on the run's evaluation seed, stopping at the meta agent's deadline. */
function draftEvaluation(run: DraftRun, buildDir: string, engine: EvaluateOptions["engine"], whole: boolean): EvaluateOptions {
  const { ctx } = run;
  // The whole split runs as a race runs it (one session, the race's order), so the child of
  // this tree may read its race off it instead of running it again (raceOver).
  const subset = whole ? raceOrder(ctx.task.visible, ctx.task.manifest.stages.stage1Size, ctx.evaluationSeed) : run.plan.subset;
  // The task agent answers with the generation's model when the task needs one (its tokens are the generation's solve-time spend).
  const solve = (run.solveLlm ?? NO_SOLVE_LLM).evaluation;
  return {
    engine,
    image: ctx.sandbox.image,
    task: ctx.task,
    buildDir,
    labels: containerLabels(ctx, run.generationId, "draft-evaluate"),
    execPhase: "draft-grade-exec",
    runtime: ctx.sandbox.runtime,
    seed: ctx.evaluationSeed,
    visible: run.plan.kind === "visible" ? "full" : "stage1",
    heldout: false,
    llmAvailable: solve.llmAvailable,
    ...(solve.onLlm === undefined ? {} : { onLlm: solve.onLlm }),
    // Instances stop starting at the deadline; the one running then has its own limit.
    evaluationTimeoutMs: Math.max(1_000, Math.min(ctx.task.manifest.evaluationTimeoutMs, run.deadline - Date.now())),
    ...(subset === null ? {} : { subset }),
  };
}

/** The draft's failure as ctx.evaluate answers it (a duplicate of nothing is never asked for here). */
function invalid(run: DraftRun, failure: Failure | null): EvaluateResult {
  // A draft has no self-modify step of its own: what failed is its extraction or a gate.
  const f = failure === null || failure.stage === "self_modify" ? { stage: "extract" as const, code: "no_tree", message: "the draft did not come back", file: null, line: null } : failure;
  const where = f.file === null ? "" : `${f.file}${f.line === null ? "" : `:${f.line}`}: `;
  const message = withoutHostPaths(`${where}${f.message}`, [run.dir, run.ctx.workRoot, run.parentSnapshotDir]);
  return { outcome: "invalid", stage: f.stage, code: f.code, message: capText(message, MESSAGE_CHARS), remaining: run.remaining() };
}
