/**
 * The request a meta agent gets: the parent's VISIBLE feedback (stage1 and visible
 * instances, grader feedback, a stderr excerpt), lineage notes, what was already tried near
 * the parent (attempts.ts) and budgets. Held-out results are in the records but never copied here.
 */
import type { Attempt, ImproveRequest, InstanceFeedback, LineageStep } from "@evolve/contract";
import type { GenerationRecord } from "../../archive/index.js";
import type { TaskManifest } from "../../evaluation/index.js";
import { capText } from "../../text/index.js";
import type { StageResult } from "../../results/index.js";
import type { RunContext } from "../context/index.js";

const FEEDBACK_CHARS = 600;
const STDERR_CHARS = 4_000;
const SUMMARY_CHARS = 300;
const MAX_INSTANCES = 200;

/** Inputs of one request; `lineage` runs from the root to the parent, root first. */
export interface RequestInputs {
  manifest: TaskManifest;
  generation: { id: string; parent: string; depth: number };
  seed: number;
  parent: GenerationRecord;
  lineage: readonly GenerationRecord[];
  llmTokens: number | null;
  deadline: number;
  /** Calls of ctx.evaluate the meta agent may make. */
  evaluations: number;
  /** Earlier attempts near the parent (attempts.ts); the request carries none when absent. */
  attempts?: readonly Attempt[];
}

/**
 * What an agent may see of an evaluation: the visible stages' instances (grader feedback and
 * errors, capped) and stderr excerpt. The one filter between evaluation results and an
 * agent, for the parent's feedback and for ctx.evaluate's answers alike.
 */
export function visibleFeedback(stages: readonly StageResult[]): { instances: InstanceFeedback[]; stderr: string } {
  const visibleStages = stages.filter((s) => s.stage === "stage1" || s.stage === "visible");
  const instances: InstanceFeedback[] = visibleStages
    .flatMap((s) => s.instances)
    .filter((i) => i.split === "visible")
    .slice(0, MAX_INSTANCES)
    .map((i) => ({
      id: i.id,
      score: i.score,
      feedback: capText(i.error === null ? i.feedback : `${i.feedback} (error: ${i.error})`, FEEDBACK_CHARS),
    }));
  const stderr = capText(visibleStages.map((s) => s.stderr).filter((s) => s.trim() !== "").join("\n"), STDERR_CHARS);
  return { instances, stderr };
}

/** Builds the request from visible data only. */
export function buildImproveRequest(inputs: RequestInputs): ImproveRequest {
  const { parent } = inputs;
  const { instances, stderr } = visibleFeedback(parent.evaluation?.stages ?? []);
  const lineage: LineageStep[] = inputs.lineage.map((g) => ({
    id: g.id,
    score: g.scores.visible,
    summary: capText(g.summary ?? (g.parent === null ? "seed" : ""), SUMMARY_CHARS),
  }));
  return {
    task: { name: inputs.manifest.name, description: inputs.manifest.description, metric: inputs.manifest.metric },
    generation: inputs.generation,
    seed: inputs.seed,
    feedback: { score: parent.scores.visible, instances, stderr },
    lineage,
    ...(inputs.attempts === undefined ? {} : { attempts: [...inputs.attempts] }),
    budget: { llmTokens: inputs.llmTokens, deadline: inputs.deadline, evaluations: inputs.evaluations },
  };
}

/**
 * A code child's request, once the broker knows the tokens left: the one builder the loop
 * and `evolve replay` share, so a replay asks exactly what the run asked.
 */
export function childRequest(
  ctx: Pick<RunContext, "task" | "evaluations">,
  child: { id: string; seed: number },
  parent: GenerationRecord,
  lineage: readonly GenerationRecord[],
  attempts?: readonly Attempt[],
): (llmTokens: number | null, deadline: number) => ImproveRequest {
  return (llmTokens, deadline) =>
    buildImproveRequest({
      manifest: ctx.task.manifest,
      generation: { id: child.id, parent: parent.id, depth: parent.depth + 1 },
      seed: child.seed,
      parent,
      lineage,
      llmTokens,
      deadline,
      evaluations: ctx.evaluations,
      ...(attempts === undefined ? {} : { attempts }),
    });
}
