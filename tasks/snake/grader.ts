/**
 * Trusted grader of snake: an interactive episode. Each step the candidate gets the visible
 * board `{ width, height, snake, food, step, maxSteps }` and answers "up" | "down" | "left" | "right".
 * Food placement is seeded and hidden. Score = food eaten / target, clipped to [0, 1].
 */
import { defineGrader, describeFailure, z } from "evolve/task";
import { DIRECTIONS, SnakeGame, type Direction } from "./game.js";

const Instance = z.object({
  id: z.string().min(1),
  width: z.number().int().min(5).max(40),
  height: z.number().int().min(5).max(40),
  /** Seed of the hidden food sequence (mixed with the evaluation's seed). */
  seed: z.number().int().min(0),
  maxSteps: z.number().int().positive().max(5000),
  /** Food that scores 1. */
  target: z.number().int().positive(),
});
type Instance = z.infer<typeof Instance>;

const END: Record<"wall" | "self" | "won" | "cap", string> = {
  wall: "hit the wall",
  self: "ran into itself",
  won: "filled the board",
  cap: "reached the step cap",
};

export const grader = defineGrader<Instance>({
  instanceSchema: Instance,
  async grade(instance, solve, ctx) {
    const game = new SnakeGame(instance.width, instance.height, (instance.seed ^ ctx.seed) >>> 0);
    let end: keyof typeof END = "cap";
    while (game.steps < instance.maxSteps) {
      const reply = await solve({
        width: game.width,
        height: game.height,
        snake: game.snake.map(([x, y]) => [x, y]),
        food: game.food === null ? null : [game.food[0], game.food[1]],
        step: game.steps,
        maxSteps: instance.maxSteps,
      });
      if (!reply.ok)
        return { score: 0, value: null, feedback: `step ${game.steps}: no answer: ${describeFailure(reply)}` };
      if (typeof reply.value !== "string" || !DIRECTIONS.includes(reply.value as Direction))
        return {
          score: 0,
          value: null,
          feedback: `step ${game.steps}: invalid move ${JSON.stringify(reply.value)?.slice(0, 60) ?? "undefined"} (expected one of ${DIRECTIONS.join(", ")})`,
        };
      const result = game.step(reply.value as Direction);
      if (result === "wall" || result === "self" || result === "won") {
        end = result;
        break;
      }
    }
    const score = Math.min(1, game.eaten / instance.target);
    return {
      score,
      value: game.eaten,
      feedback: `ate ${game.eaten} (target ${instance.target}) in ${game.steps} steps; ${END[end]}`,
      artifact: { length: game.snake.length, steps: game.steps, end },
    };
  },
});
