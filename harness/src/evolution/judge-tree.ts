/**
 * Validate a tree, log the verdict, and evaluate it when valid: the part of a generation
 * the seed and every child share. Agent misbehaviour comes back as `failure`, never thrown.
 */
import { join } from "node:path";
import type { ArchiveWriter, PhaseTimings } from "../archive/index.js";
import { type EvaluationResult, type Failure, failure, type ValidationFailure } from "../results/index.js";
import { evaluateStep } from "./evaluate-step.js";
import { checkInterrupted, type RunContext } from "./run-context.js";
import { validateStep } from "./validate-step.js";
import type { SolveLlm } from "./solve-llm.js";

export interface JudgeInput {
  ctx: RunContext;
  writer: ArchiveWriter;
  generationId: string;
  /** The parent's snapshot, or null for generation 0 (no empty-diff rule). */
  parentDir: string | null;
  childDir: string;
  /** Scratch folder of this generation; the build is emitted below it. */
  workDir: string;
  snapshotHash: string;
  /** Filled with the validation gates' and the evaluation's times. */
  timings: PhaseTimings;
  /** The task agent's model during the evaluation (a task that needs one). */
  solveLlm?: SolveLlm;
}

function diedWhileChecking(deaths: number): ValidationFailure {
  return failure("compile", "harness_died_checking", `the harness died ${deaths} times while checking this tree (same snapshot); it is not checked again`);
}

export async function judgeTree(input: JudgeInput): Promise<{ failure: Failure | null; evaluation: EvaluationResult | null }> {
  const { ctx, writer, generationId: id, timings } = input;
  const buildDir = join(input.workDir, "build");
  // Defence in depth behind the bounded checks: a tree that was being checked when the
  // harness died twice is not checked a third time, so no tree can crash-loop a run.
  const deaths = ctx.checkDeaths.get(input.snapshotHash) ?? 0;
  await writer.appendEvent({ type: "checking", at: new Date().toISOString(), generation: id, snapshotHash: input.snapshotHash });
  const validated =
    deaths >= 2
      ? { failure: diedWhileChecking(deaths), timings: {} }
      : await validateStep({ ctx, generationId: id, parentDir: input.parentDir, childDir: input.childDir, buildDir });
  Object.assign(timings, validated.timings);
  checkInterrupted(ctx.signal);
  await writer.appendEvent({
    type: "validated",
    at: new Date().toISOString(),
    generation: id,
    ok: validated.failure === null,
    stage: validated.failure?.stage ?? null,
    code: validated.failure?.code ?? null,
  });
  if (validated.failure !== null) return { failure: validated.failure, evaluation: null };
  const started = performance.now();
  const build = await ctx.builds.adopt(input.snapshotHash, buildDir);
  const evaluation = await evaluateStep({ ctx, generationId: id, buildDir: build, ...(input.solveLlm === undefined ? {} : { solveLlm: input.solveLlm }) });
  timings.evaluate = performance.now() - started;
  checkInterrupted(ctx.signal);
  return { failure: null, evaluation };
}
