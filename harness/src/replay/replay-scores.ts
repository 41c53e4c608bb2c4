/** Step 3 of a replay: re-validate and re-evaluate one generation in fresh containers and compare with its record. */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { GenerationRecord, ScoreSummary } from "../archive/index.js";
import { evaluateStep, scoresOf, validateStep, type EvaluationPlan, type RunContext } from "../evolution/index.js";
import { replayedSolve } from "./replay-solve.js";

/** One split's recorded and replayed score. */
export interface SplitComparison {
  readonly split: "visible" | "heldout" | "stage1";
  readonly recorded: number | null;
  readonly replayed: number | null;
  /** replayed − recorded; null when either is missing. */
  readonly difference: number | null;
}

/** What re-validating and re-evaluating a generation showed. */
export interface ScoreCheck {
  readonly generation: string;
  readonly recordedStatus: string;
  readonly replayedStatus: string;
  readonly sameStatus: boolean;
  readonly splits: SplitComparison[];
  /** Largest |difference| over the splits; Infinity when a score appears or disappears. */
  readonly drift: number;
  /** The task agent's solve-time calls did not all replay (a task that needs a model): how. */
  readonly solveNote?: string;
}

function statusOf(g: GenerationRecord): string {
  switch (g.status.kind) {
    case "valid":
      return "valid";
    case "invalid":
      return `invalid at ${g.status.stage} (${g.status.code})`;
    case "duplicate":
      return `duplicate of ${g.status.of}`;
  }
}

/** Compares score summaries split by split. */
export function compareScores(recorded: ScoreSummary, replayed: ScoreSummary): { splits: SplitComparison[]; drift: number } {
  const splits = (["visible", "heldout", "stage1"] as const).map((split) => {
    const a = recorded[split];
    const b = replayed[split];
    return { split, recorded: a, replayed: b, difference: a === null || b === null ? null : b - a };
  });
  let drift = 0;
  for (const s of splits) {
    if (s.difference !== null) drift = Math.max(drift, Math.abs(s.difference));
    else if ((s.recorded === null) !== (s.replayed === null)) drift = Infinity;
  }
  return { splits, drift };
}

/**
 * Re-runs the gates and the evaluation of `g` (tree in `childDir`, parent's in `parentDir`),
 * evaluated by `how.plan` (as recorded); a task agent that needs a model gets its answers from
 * the solve transcript of `how.recorded.solveOf`.
 */
export async function replayScores(
  ctx: RunContext,
  g: GenerationRecord,
  childDir: string,
  parentDir: string | null,
  workDir: string,
  how: { plan?: EvaluationPlan; recorded?: { runDir: string; generations: readonly GenerationRecord[]; solveOf: GenerationRecord } } = {},
): Promise<ScoreCheck> {
  await mkdir(workDir, { recursive: true });
  const buildDir = join(workDir, "build");
  const validated = await validateStep({ ctx, generationId: g.id, parentDir, childDir, buildDir });
  const replayedStatus = validated.failure === null ? "valid" : `invalid at ${validated.failure.stage} (${validated.failure.code})`;
  const solve = how.recorded === undefined ? null : await replayedSolve(ctx, how.recorded.runDir, how.recorded.generations, how.recorded.solveOf, "evaluation");
  const evaluation =
    validated.failure === null ? await evaluateStep({ ctx, generationId: g.id, buildDir, ...(how.plan === undefined ? {} : { plan: how.plan }), ...(solve === null ? {} : { solveLlm: solve.solveLlm }) }) : null;
  solve?.solveLlm.close();
  const { splits, drift } = compareScores(g.scores, scoresOf(evaluation));
  const check = { generation: g.id, recordedStatus: statusOf(g), replayedStatus, sameStatus: statusOf(g) === replayedStatus, splits, drift };
  const note = solve?.note() ?? "";
  return note === "" ? check : { ...check, solveNote: note.replace(/^; /, "") };
}
