/**
 * Trusted grader of snake: an interactive episode. Each step the candidate gets the visible
 * board `{ width, height, snake, food, step, maxSteps }` and answers "up" | "down" | "left" | "right".
 * Food placement is seeded and hidden. Score = food eaten / target, clipped to [0, 1].
 * Its oracle (arena runs) makes a game of a proposed board and seed.
 */
import { defineGrader, defineOracle, describeFailure, recordEpisode, z } from "evolve/task";
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
    // The board per step, for `evolve watch` and the report (capped by the recorder).
    const episode = recordEpisode({ width: game.width, height: game.height, layers: [{ name: "snake", glyph: "o", head: "@" }, { name: "food", glyph: "*" }] });
    const frame = (): void => episode.frame([game.snake, game.food === null ? [] : [game.food]]);
    frame();
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
        return { score: 0, value: null, feedback: `step ${game.steps}: no answer: ${describeFailure(reply)}`, artifact: { episode: episode.done(`no answer at step ${game.steps}`) } };
      if (typeof reply.value !== "string" || !DIRECTIONS.includes(reply.value as Direction))
        return {
          score: 0,
          value: null,
          feedback: `step ${game.steps}: invalid move ${JSON.stringify(reply.value)?.slice(0, 60) ?? "undefined"} (expected one of ${DIRECTIONS.join(", ")})`,
          artifact: { episode: episode.done(`invalid move at step ${game.steps}`) },
        };
      const result = game.step(reply.value as Direction);
      if (result === "moved" || result === "ate" || result === "won") frame();
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
      artifact: { length: game.snake.length, steps: game.steps, end, episode: episode.done(`ate ${game.eaten}; ${END[end]}`) },
    };
  },
});

/** A board and a food seed a test agent thinks a candidate plays badly. */
const Proposal = z.strictObject({
  width: z.number().int().min(5).max(20),
  height: z.number().int().min(5).max(20),
  seed: z.number().int().min(0).max(2 ** 31 - 1),
});

/**
 * Arena oracle: the proposed board and seed as a game. The step cap and target scale with
 * the board's area as in the visible games (10 × 10: 200 steps, target 25): maxSteps = 2 ×
 * area, target = area / 4 rounded (at least 1). Deterministic; it never refuses a parsed proposal.
 */
export const oracle = defineOracle({
  description: '{ "width": 5-20, "height": 5-20, "seed": 0-2147483647 }: a board and the seed of its hidden food sequence; the step cap is 2 × width × height and the target width × height / 4',
  proposalSchema: Proposal,
  limits: { perRound: 6, maxBytes: 256 },
  judge({ width, height, seed }, id) {
    const area = width * height;
    const instance: Instance = { id, width, height, seed, maxSteps: 2 * area, target: Math.max(1, Math.round(area / 4)) };
    return { ok: true, instance, verdict: `${width}×${height} board, food seed ${seed}: target ${instance.target} food within ${instance.maxSteps} steps` };
  },
});
