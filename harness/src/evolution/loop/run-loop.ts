/**
 * The loop: W children in flight at once, each select → self-modify → validate → evaluate →
 * record. Selection is synchronous in this one place (so parallel workers see each other's
 * in-flight parents); the archive writer is the only state the workers share.
 */
import type { ArchiveWriter, GenerationRecord } from "../../archive/index.js";
import { lineageOf, parseGenerationId } from "../../archive/index.js";
import { candidatesFromGenerations, compareIds, selectParent, strategyByName, type Rng, type SelectionStrategyName } from "../../selection/index.js";
import { redoingLost, runChild, type ChildPlan } from "../steps/index.js";
import type { Progress } from "../view/index.js";
import type { LoopEnd, RunContext } from "../context/index.js";
import { generationSeed } from "../context/index.js";
import { attemptViews, attemptsNear, childEvaluationPlan } from "../pipeline/index.js";

/** The archive as this process knows it, and the selection RNG. */
export interface LoopState {
  /** Every recorded generation (the seed included), in id order. */
  records: GenerationRecord[];
  rng: Rng;
}

export interface LoopOptions {
  /** Children the run attempts in all (recorded ones count, valid or not). */
  total: number;
  workers: number;
  selection: SelectionStrategyName;
  /**
   * Brings `records` up to date with decisions made elsewhere (approvals, rejections,
   * timeouts), awaited before every selection so a child approved a moment ago can be chosen.
   */
  beforeSelect?: () => Promise<void>;
}

/** Runs children until `total` are recorded, the budget is spent, or the run is interrupted. */
export async function runLoop(ctx: RunContext, writer: ArchiveWriter, state: LoopState, options: LoopOptions, progress: Progress): Promise<LoopEnd> {
  // Removed when the loop ends: a caller may run many runs under one signal (a benchmark, a test file).
  let onAbort = (): void => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await loopUntilDone(ctx, writer, state, options, progress, aborted);
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

/** runLoop's body; `aborted` resolves on Ctrl-C. */
async function loopUntilDone(ctx: RunContext, writer: ArchiveWriter, state: LoopState, options: LoopOptions, progress: Progress, aborted: Promise<void>): Promise<LoopEnd> {
  const strategy = strategyByName(options.selection, { discountBarren: ctx.economy.discountBarren });
  const inFlight = new Map<string, { parent: string; done: Promise<void> }>();
  const fatal: { error?: unknown; failed: boolean } = { failed: false };
  let end: LoopEnd = "finished";
  const waitForOne = (): Promise<void> => Promise.race([...[...inFlight.values()].map((f) => f.done), aborted]);
  const recordedChildren = (): number => state.records.filter((r) => r.parent !== null).length;

  for (;;) {
    if (ctx.signal.aborted || fatal.failed) break;
    if (recordedChildren() + inFlight.size >= options.total) break;
    // The meta agent's budget, or the task agent's (a task that needs a model): either spent, no child can be judged fairly.
    if (ctx.llm.runLedger.exhausted || ctx.llm.solve?.runLedger.exhausted === true) {
      end = "budget_spent";
      break;
    }
    if (inFlight.size >= options.workers) {
      await waitForOne();
      continue;
    }
    await options.beforeSelect?.();
    if (ctx.signal.aborted) break;
    const candidates = candidatesFromGenerations(state.records, [...inFlight.values()].map((f) => f.parent));
    const parentId = selectParent(strategy, candidates, state.rng);
    if (parentId === null) {
      if (inFlight.size > 0) {
        await waitForOne();
        continue;
      }
      end = "no_valid_parent";
      break;
    }
    const plan = await planChild(ctx, writer, state, parentId, options.selection);
    progress.childStarted();
    const done = redoingLost(ctx, writer, plan.id, () => runChild(ctx, writer, plan)).then(
      (record) => {
        state.records.push(record);
        state.records.sort((a, b) => compareIds(a.id, b.id));
        progress.recorded(record);
      },
      (error: unknown) => {
        progress.childAbandoned();
        // After Ctrl-C, whatever a step threw (its container was removed under it) is the interrupt.
        if (!ctx.signal.aborted && !fatal.failed) {
          fatal.failed = true;
          fatal.error = error;
        }
      },
    );
    inFlight.set(plan.id, { parent: parentId, done: done.finally(() => inFlight.delete(plan.id)) });
  }

  // After Ctrl-C the session's sweeper (run-session.ts) removes the containers under these children.
  await Promise.all([...inFlight.values()].map((f) => f.done));
  if (fatal.failed) throw fatal.error;
  return ctx.signal.aborted ? "interrupted" : end;
}

/**
 * A selected parent's child: its id and the RNG state recorded before anything runs (so a
 * resume continues the same draws), its lineage, seed, the attempts near the parent it is
 * shown, and how it will be evaluated.
 */
async function planChild(ctx: RunContext, writer: ArchiveWriter, state: LoopState, parentId: string, strategy: SelectionStrategyName): Promise<ChildPlan> {
  const id = writer.allocateGenerationId();
  const rng = state.rng.state();
  await writer.updateRun((run) => ({ ...run, rng }));
  await writer.appendEvent({ type: "selected", at: new Date().toISOString(), generation: id, parent: parentId, strategy, rng });
  const byId = new Map(state.records.map((r) => [r.id, r]));
  const lineage = lineageOf(state.records, parentId).map((g) => byId.get(g) as GenerationRecord);
  const parent = byId.get(parentId) as GenerationRecord;
  const sameTree = (hash: string): GenerationRecord | null => state.records.find((r) => r.snapshotHash === hash && r.status.kind !== "duplicate") ?? null;
  const shown = ctx.economy.attempts > 0 ? { attempts: attemptViews(attemptsNear(state.records, parentId, ctx.economy.attempts), parentId, state.records) } : {};
  const evaluation = childEvaluationPlan(ctx, id, parent, () => state.records);
  return { id, parent, lineage, seed: generationSeed(ctx.runSeed, parseGenerationId(id) ?? 0), sameTree, evaluation, ...shown };
}
