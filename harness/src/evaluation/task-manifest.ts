/** The manifest of a task folder (tasks/<name>/task.json), parsed with zod at load. */
import { z } from "zod";

export const TaskManifest = z.object({
  /** Kebab-case; equals the folder name. */
  name: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "name must be kebab-case"),
  description: z.string().min(1),
  /** The raw metric in words, e.g. "sum of radii". */
  metric: z.string().min(1),
  /** Whether a larger raw metric is better; normalised scores are always higher-is-better. */
  direction: z.enum(["maximize", "minimize"]),
  /** Wall clock for one instance, summed over all its calls (an interactive episode included). */
  instanceTimeoutMs: z.number().int().positive(),
  /** Wall clock for one split of one evaluation (visible stages together, or the held-out stage). */
  evaluationTimeoutMs: z.number().int().positive(),
  stages: z.object({
    /** The first `stage1Size` visible instances make stage 1. */
    stage1Size: z.number().int().positive(),
    /** The rest of the visible split runs only when the stage-1 score reaches this. */
    threshold: z.number().min(0).max(1),
  }),
  /** Grades per instance (different seeds); the instance score is their mean. */
  repeats: z.number().int().min(1).max(20).default(1),
  /**
   * The task agent calls the run's model while it solves (ctx.llm in `solve`): evaluations get
   * the model, with the solve-time budgets, and a run without a model is refused before it
   * starts. Absent or false: the task agent runs without a model and scores are reproducible.
   */
  needsModel: z.boolean().optional(),
  /** The seed agent's measured baseline, in words (documentation only). */
  seedBaseline: z.string().optional(),
});
export type TaskManifest = z.infer<typeof TaskManifest>;
