import { describe, expect, it } from "vitest";
import { jsonBytes, loadTask, type SolveCall, type Task } from "../../harness/src/evaluation/index.js";
import { EPISODE_CAPS, episodeOf } from "../../harness/src/results/index.js";
import { SnakeGame } from "./game.js";

const task: Task = await loadTask(new URL(".", import.meta.url).pathname);
const instance = task.visible[0]!;

type Board = { width: number; height: number; snake: [number, number][]; food: [number, number] | null };

/** A host-side test player (test code, not agent code): walks toward the food, never into its neck. */
const chaser: SolveCall = async (input) => {
  const b = input as unknown as Board;
  const [hx, hy] = b.snake[0]!;
  const [nx, ny] = b.snake[1]!;
  const [fx, fy] = b.food!;
  const steps = { right: [1, 0], left: [-1, 0], down: [0, 1], up: [0, -1] } as const;
  const wanted = [fx > hx ? "right" : "left", fy > hy ? "down" : "up", "up", "down", "left", "right"] as const;
  const value = wanted.find((m) => hx + steps[m][0] !== nx || hy + steps[m][1] !== ny)!;
  return { ok: true, value, durationMs: 1 };
};

describe("snake game", () => {
  it("places the same hidden food for the same seed, other food for other seeds", () => {
    const a = new SnakeGame(10, 10, 7), b = new SnakeGame(10, 10, 7), c = new SnakeGame(10, 10, 8);
    expect(a.food).toEqual(b.food);
    expect(a.food).not.toEqual(c.food);
    // Not one lucky pair: twenty seeds spread the first food over many cells.
    const firsts = new Set(Array.from({ length: 20 }, (_, seed) => JSON.stringify(new SnakeGame(10, 10, seed).food)));
    expect(firsts.size).toBeGreaterThan(10);
    expect(a.snake).toEqual([[5, 5], [4, 5], [3, 5]]);
    expect(a.step("left")).toBe("self");
  });

  it("moves without growing, grows by one when eating, and places the next food off the snake", () => {
    const g = new SnakeGame(10, 10, 7);
    expect(g.food).toEqual([1, 0]);
    const moves = [...Array<"up">(5).fill("up"), ...Array<"left">(4).fill("left")];
    const results = moves.map((m) => g.step(m));
    expect(results).toEqual([...Array(8).fill("moved"), "ate"]);
    expect(g.snake).toEqual([[1, 0], [2, 0], [3, 0], [4, 0]]);
    expect(g.eaten).toBe(1);
    expect(g.food).not.toBeNull();
    expect(g.snake.some(([x, y]) => x === g.food?.[0] && y === g.food[1])).toBe(false);
  });

  it("hits the wall", () => {
    const g = new SnakeGame(10, 10, 1);
    let r = g.step("right");
    while (r === "moved" || r === "ate") r = g.step("right");
    expect(r).toBe("wall");
  });
});

describe("snake grader", () => {
  /** Plays one episode with the chaser, keeping every food position it was shown (in order, without repeats). */
  async function play(seed: number) {
    const foods: string[] = [];
    const watching: SolveCall = async (input) => {
      const food = JSON.stringify((input as unknown as Board).food);
      if (foods.at(-1) !== food) foods.push(food);
      return chaser(input);
    };
    return { outcome: await task.grader.grade(instance, watching, { seed }), foods };
  }

  it("plays a seeded episode and counts food", async () => {
    const one = await play(5);
    const two = await play(5);
    const other = await play(6);
    expect(one).toEqual(two);
    // The evaluation's seed changes the hidden food: another seed, another sequence.
    expect(other.foods.slice(0, 3)).not.toEqual(one.foods.slice(0, 3));
    // Each food eaten makes a new one appear; the value is that count.
    expect(one.outcome.value).toBeGreaterThan(0);
    expect(one.outcome.value).toBe(one.foods.length - 1);
    expect(one.outcome.score).toBeCloseTo(Math.min(1, one.outcome.value! / 25), 12);
    expect(one.outcome.feedback).toMatch(/^ate \d+ \(target 25\) in \d+ steps/);
  });

  it("asks once per step up to the step cap", async () => {
    let calls = 0;
    // Circles in a 2x2 loop forever: never dies, so the cap ends the game.
    const loop: SolveCall = async () => {
      const value = (["up", "left", "down", "right"] as const)[calls++ % 4]!;
      return { ok: true, value, durationMs: 0 };
    };
    const g = await task.grader.grade({ ...instance, maxSteps: 40 } as typeof instance, loop, { seed: 3 });
    expect(calls).toBe(40);
    expect(g).toMatchObject({ score: 0, value: 0, feedback: "ate 0 (target 25) in 40 steps; reached the step cap" });
    expect(g.artifact).toMatchObject({ length: 3, steps: 40, end: "cap" });
  });

  it("records the board of every step as a bounded episode: the snake head first, the food", async () => {
    let calls = 0;
    const loop: SolveCall = async () => ({ ok: true, value: (["up", "left", "down", "right"] as const)[calls++ % 4]!, durationMs: 0 });
    const g = await task.grader.grade({ ...instance, maxSteps: 40 } as typeof instance, loop, { seed: 3 });
    const found = episodeOf(g.artifact);
    expect(found?.ok).toBe(true);
    const episode = found?.ok === true ? found.episode : null;
    const board = instance as unknown as { width: number; height: number };
    expect(episode).toMatchObject({ kind: "grid", width: board.width, height: board.height, truncated: 0, end: "ate 0; reached the step cap" });
    expect(episode?.layers.map((l) => l.name)).toEqual(["snake", "food"]);
    // The first frame and one per move.
    expect(episode?.frames).toHaveLength(41);
    const [x, y] = [Math.floor(board.width / 2), Math.floor(board.height / 2)];
    expect(episode?.frames[0]?.[0]).toEqual([y * board.width + x, y * board.width + x - 1, y * board.width + x - 2]);
    // "up" moves the head one row up: index − width.
    expect(episode?.frames[1]?.[0]?.[0]).toBe((y - 1) * board.width + x);
    for (const frame of episode?.frames ?? []) expect(frame[1]).toHaveLength(1);
  });

  it("keeps the episode within its caps on the largest board", async () => {
    // A long, growing game on a 40 × 40 board: the recorder stops keeping frames at its cap and counts the rest.
    const big = { ...instance, width: 40, height: 40, maxSteps: 5000 } as typeof instance;
    let calls = 0;
    const sweep: SolveCall = async () => ({ ok: true, value: (["up", "left", "down", "right"] as const)[calls++ % 4]!, durationMs: 0 });
    const g = await task.grader.grade(big, sweep, { seed: 5 });
    const found = episodeOf(g.artifact);
    expect(found?.ok).toBe(true);
    if (found?.ok !== true) return;
    expect(found.episode.frames.length + found.episode.truncated).toBe(5001);
    expect(found.episode.frames.length).toBeLessThanOrEqual(EPISODE_CAPS.frames);
    expect(jsonBytes(g.artifact)).toBeLessThan(256 * 1024);
  });

  const hostile: [string, unknown, RegExp][] = [
    ["an unknown move", "north", /invalid move "north"/],
    ["a number", 3, /invalid move 3/],
    ["null", null, /invalid move null/],
    ["missing", undefined, /invalid move undefined/],
    ["a 10 MB string", "u".repeat(10_000_000), /invalid move "uuuu/],
  ];
  for (const [name, value, reason] of hostile)
    it(`scores 0 with the reason for ${name}`, async () => {
      const outcome = await task.grader.grade(instance, async () => ({ ok: true, value, durationMs: 1 }), { seed: 1 });
      expect(outcome).toMatchObject({ score: 0, value: null });
      expect(outcome.feedback).toMatch(reason);
      expect(outcome.feedback.length).toBeLessThan(300);
    });
});
