/**
 * Phase 5 of a generation: the emitted JS that passed validation runs in fresh containers
 * on the run's fixed evaluation seed: stage 1, the rest of the visible split above the
 * threshold, then the held-out split for the record (never shown to any agent).
 */
import type { EvaluationResult } from "../results/index.js";
import { evaluateCandidate } from "../evaluation/index.js";
import type { ScoreSummary } from "../archive/index.js";
import type { RunContext } from "./run-context.js";
import { NO_SOLVE_LLM, type SolveLlm } from "./solve-llm.js";

export interface EvaluateStepInput {
  ctx: Pick<RunContext, "sandbox" | "task" | "evaluationSeed" | "runId">;
  generationId: string;
  buildDir: string;
  /** The task agent's model (a task that needs one); absent: none. */
  solveLlm?: SolveLlm;
}

/** Scores one valid candidate; agent failures are zero scores inside the result. */
export async function evaluateStep(input: EvaluateStepInput): Promise<EvaluationResult> {
  const { sandbox } = input.ctx;
  // Task agents run without an LLM during evaluation (scores stay reproducible, the LLM
  // budget goes to self-modification), unless the task needs one: then through the
  // generation's solve-time broker, on its own budget (solve-llm.ts).
  const solve = (input.solveLlm ?? NO_SOLVE_LLM).evaluation;
  return evaluateCandidate({
    engine: sandbox.engine,
    image: sandbox.image,
    task: input.ctx.task,
    buildDir: input.buildDir,
    labels: { session: sandbox.session, run: input.ctx.runId, generation: input.generationId },
    runtime: sandbox.runtime,
    seed: input.ctx.evaluationSeed,
    visible: "staged",
    heldout: true,
    llmAvailable: solve.llmAvailable,
    ...(solve.onLlm === undefined ? {} : { onLlm: solve.onLlm }),
  });
}

/** The per-split scores of an evaluation (all null when there was none). */
export function scoresOf(evaluation: EvaluationResult | null): ScoreSummary {
  const stage1 = evaluation?.stages.find((s) => s.stage === "stage1")?.score ?? null;
  return { visible: evaluation?.visibleScore ?? null, heldout: evaluation?.heldoutScore ?? null, stage1 };
}
