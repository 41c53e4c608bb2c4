/**
 * ctx.evaluate, host side, for one generation: the meta agent's workspace as it is now is
 * taken out through the safe extractor, checked like a child (policy, compile, signature in
 * the bounded check worker; import in a container) and evaluated on visible instances in
 * fresh containers, on the run's evaluation seed. The answer is the visible feedback only.
 *
 * Bounded: `allowed` calls per generation (a refused call does not count), one at a time, and
 * none begins closer than MIN_WINDOW_MS to the meta agent's deadline. Everything the agent
 * gets wrong (a malformed request, unknown or held-out ids, a loop past the count) is a
 * refusal value; a failure of the harness itself is kept and rethrown by the caller.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { EvaluateResult } from "@evolve/contract";
import type { LiveWorkspace, WireJson } from "../../../sandbox/src/index.js";
import { diffDirectories, type EvaluateCalls } from "../archive/index.js";
import { evaluateCandidate } from "../evaluation/index.js";
import type { EvaluateTranscriptEntry } from "../llm/index.js";
import { capText } from "../text/index.js";
import { countingEngine } from "./counting-engine.js";
import { planDraftRequest } from "./draft-request.js";
import { visibleFeedback } from "./improve-request.js";
import type { RunContext } from "./run-context.js";
import { validateStep } from "./validate-step.js";
import { NO_SOLVE_LLM, type SolveLlm } from "./solve-llm.js";

/** No call begins with less than this before the meta agent's deadline. */
export const MIN_WINDOW_MS = 10_000;
/** Refused calls recorded one by one; later ones are only counted. */
const RECORDED_REFUSALS = 20;
const MESSAGE_CHARS = 2_000;
/** Container starts (import check, evaluation sessions) beyond the limits of what runs in them. */
const STARTS_MS = 20_000;

export interface DraftEvaluatorInput {
  ctx: Pick<RunContext, "sandbox" | "validator" | "task" | "evaluationSeed" | "runId" | "evaluations" | "workRoot" | "signal" | "policy">;
  generationId: string;
  /** The parent's snapshot: the draft is checked against it, as the child will be. */
  parentSnapshotDir: string;
  /** The meta agent's deadline (epoch ms). */
  deadline: number;
  /** The task agent's model while drafts are evaluated (a task that needs one): the generation's. */
  solveLlm?: SolveLlm;
}

/** One generation's ctx.evaluate service. */
export interface DraftEvaluator {
  /** The channel's onEvaluate: always settles with an EvaluateResult. */
  readonly onEvaluate: (request: unknown, workspace: LiveWorkspace) => Promise<WireJson>;
  /** Every call so far (refusals up to a cap), in arrival order. */
  transcript(): EvaluateTranscriptEntry[];
  usage(): EvaluateCalls;
  /** Refuses later calls and waits for the one running; returns a harness failure met meanwhile, if any. */
  close(): Promise<unknown>;
}

/**
 * How long one call can outlast the meta agent's deadline: a call begins at least
 * MIN_WINDOW_MS before it, and its checks and last instance run under their own limits.
 * The self-modification container's clock gets this on top, so the host's work is never
 * what kills it.
 */
export function evaluateSlackMs(ctx: Pick<RunContext, "sandbox" | "validator" | "task">): number {
  return ctx.validator.limits.timeoutMs + ctx.sandbox.importTimeoutMs + ctx.task.manifest.instanceTimeoutMs + STARTS_MS;
}

const REPO_ROOT = resolve(import.meta.dirname, "../../..");

/**
 * A check's message without the host's folders in it (a compiler message can name a file
 * outside the tree by a relative path that climbs into them): no host path reaches a container.
 */
function withoutHostPaths(message: string, dirs: readonly string[]): string {
  let text = message;
  for (const dir of [...dirs, REPO_ROOT, tmpdir(), homedir()].sort((a, b) => b.length - a.length)) {
    if (dir.length < 2) continue;
    text = text.replaceAll(dir, "<host>").replaceAll(dir.slice(1), "<host>");
  }
  return text;
}

export function createDraftEvaluator(input: DraftEvaluatorInput): DraftEvaluator {
  const { ctx } = input;
  const allowed = ctx.evaluations;
  const entries: EvaluateTranscriptEntry[] = [];
  const usage: EvaluateCalls = { calls: 0, counted: 0, containers: 0, durationMs: 0 };
  let reserved = 0;
  let refusalsRecorded = 0;
  let closed = false;
  let failure: unknown = null;
  let queue: Promise<unknown> = Promise.resolve();
  let drafts = 0;
  const remaining = (): number => Math.max(0, allowed - reserved);

  const record = (entry: EvaluateTranscriptEntry): void => {
    usage.durationMs += entry.durationMs;
    usage.containers += entry.containers;
    if (entry.result.outcome === "refused" && ++refusalsRecorded > RECORDED_REFUSALS) return;
    entries.push(entry);
  };
  const refusal = (reason: string): EvaluateResult => ({ outcome: "refused", reason: capText(reason, MESSAGE_CHARS), remaining: remaining() });
  // Why no call may begin now, or null.
  const closedReason = (): string | null => {
    if (closed) return "the generation is over";
    if (ctx.signal.aborted) return "the run is stopping";
    const left = input.deadline - Date.now();
    if (left < MIN_WINDOW_MS) return `the deadline is ${Math.max(0, Math.round(left / 1000))} s away; an evaluation needs at least ${MIN_WINDOW_MS / 1000} s`;
    return null;
  };

  /** Takes, checks and evaluates the draft; fills `entry`'s costs as it goes. */
  const run = async (plan: Extract<ReturnType<typeof planDraftRequest>, { ok: true }>, workspace: LiveWorkspace, entry: EvaluateTranscriptEntry): Promise<EvaluateResult> => {
    const counted = countingEngine(ctx.sandbox.engine);
    const dir = await mkdtemp(join(ctx.workRoot, `${input.generationId}-draft${++drafts}-`));
    const invalid = (stage: Extract<EvaluateResult, { outcome: "invalid" }>["stage"], code: string, message: string): EvaluateResult => ({
      outcome: "invalid",
      stage,
      code,
      message: capText(withoutHostPaths(message, [dir, ctx.workRoot, input.parentSnapshotDir]), MESSAGE_CHARS),
      remaining: remaining(),
    });
    try {
      let t = performance.now();
      const tree = join(dir, "tree");
      const taken = await workspace.take(tree);
      const read = taken.ok ? await diffDirectories(input.parentSnapshotDir, tree) : null;
      entry.timings.extract = performance.now() - t;
      if (!taken.ok) return invalid("extract", "extraction_refused", taken.reason);
      if (read === null || !read.ok) return invalid("extract", "unreadable_tree", read?.reason ?? "the draft does not read as a tree");
      entry.snapshotHash = read.snapshotHash;

      t = performance.now();
      const build = join(dir, "build");
      const checkCtx = { ...ctx, sandbox: { ...ctx.sandbox, engine: counted.engine } };
      const checked = await validateStep({ ctx: checkCtx, generationId: input.generationId, parentDir: input.parentSnapshotDir, childDir: tree, buildDir: build, phase: "draft-validate" });
      entry.timings.checks = performance.now() - t;
      if (checked.failure !== null) {
        const where = checked.failure.file === null ? "" : `${checked.failure.file}${checked.failure.line === null ? "" : `:${checked.failure.line}`}: `;
        return invalid(checked.failure.stage, checked.failure.code, `${where}${checked.failure.message}`);
      }

      t = performance.now();
      // The task agent answers with the generation's model when the task needs one (its tokens are the generation's solve-time spend).
      const solve = (input.solveLlm ?? NO_SOLVE_LLM).evaluation;
      const evaluation = await evaluateCandidate({
        engine: counted.engine,
        image: ctx.sandbox.image,
        task: ctx.task,
        buildDir: build,
        labels: { session: ctx.sandbox.session, run: ctx.runId, generation: input.generationId, phase: "draft-evaluate" },
        execPhase: "draft-grade-exec",
        runtime: ctx.sandbox.runtime,
        seed: ctx.evaluationSeed,
        visible: plan.kind === "visible" ? "full" : "stage1",
        heldout: false,
        llmAvailable: solve.llmAvailable,
        ...(solve.onLlm === undefined ? {} : { onLlm: solve.onLlm }),
        // Instances stop starting at the deadline; the one running then has its own limit.
        evaluationTimeoutMs: Math.max(1_000, Math.min(ctx.task.manifest.evaluationTimeoutMs, input.deadline - Date.now())),
        ...(plan.subset === null ? {} : { subset: plan.subset }),
      });
      entry.timings.evaluate = performance.now() - t;
      const { instances, stderr } = visibleFeedback(evaluation.stages);
      return { outcome: "evaluated", score: evaluation.visibleScore ?? 0, instances, stderr, remaining: remaining() };
    } finally {
      entry.containers = counted.started();
      await rm(dir, { recursive: true, force: true });
    }
  };

  const onEvaluate = async (request: unknown, workspace: LiveWorkspace): Promise<WireJson> => {
    const arrived = performance.now();
    usage.calls++;
    const plan = planDraftRequest(request, ctx.task);
    const entry: EvaluateTranscriptEntry = {
      kind: "evaluate",
      at: new Date().toISOString(),
      request: plan.describe,
      result: { outcome: "refused", remaining: 0 },
      snapshotHash: null,
      durationMs: 0,
      timings: {},
      containers: 0,
    };
    const answer = (result: EvaluateResult): WireJson => {
      entry.result = result;
      entry.durationMs = performance.now() - arrived;
      record(entry);
      return result as unknown as WireJson;
    };
    if (!plan.ok) return answer(refusal(plan.reason));
    if (reserved >= allowed) return answer(refusal(allowed === 0 ? "this run allows no evaluations (evolve run --evaluations N)" : `no evaluations left: this generation allows ${allowed}`));
    const early = closedReason();
    if (early !== null) return answer(refusal(early));
    // Reserved now, so calls made at once cannot together exceed the count.
    reserved++;
    const turn = queue.then(async (): Promise<EvaluateResult> => {
      const late = closedReason();
      if (late !== null) {
        reserved--;
        return refusal(late);
      }
      usage.counted++;
      try {
        return await run(plan, workspace, entry);
      } catch (error) {
        // A harness failure: the agent is told, the generation step rethrows it after the container.
        failure ??= error;
        return refusal("the harness failed while evaluating the draft");
      }
    });
    queue = turn.catch(() => undefined);
    return answer(await turn);
  };

  return {
    onEvaluate,
    transcript: () => entries.map((e) => structuredClone(e)),
    usage: () => ({ ...usage }),
    async close() {
      closed = true;
      await queue;
      return failure;
    },
  };
}
