/** The snake game itself (trusted, on the host): a seeded board the candidate only sees step by step. */

import { seededRandom } from "evolve/task";

export type Direction = "up" | "down" | "left" | "right";
export const DIRECTIONS: readonly Direction[] = ["up", "down", "left", "right"];
export type Cell = [number, number];

export type StepResult = "moved" | "ate" | "wall" | "self" | "won";

/** One game: snake[0] is the head; up is y - 1. */
export class SnakeGame {
  readonly snake: Cell[];
  food: Cell | null = null;
  eaten = 0;
  steps = 0;
  private readonly random: () => number;

  constructor(readonly width: number, readonly height: number, seed: number) {
    this.random = seededRandom(seed);
    const x = Math.floor(width / 2), y = Math.floor(height / 2);
    this.snake = [[x, y], [x - 1, y], [x - 2, y]];
    this.placeFood();
  }

  private placeFood(): void {
    const taken = new Set(this.snake.map(([x, y]) => y * this.width + x));
    const free: Cell[] = [];
    for (let y = 0; y < this.height; y++)
      for (let x = 0; x < this.width; x++) if (!taken.has(y * this.width + x)) free.push([x, y]);
    this.food = free.length === 0 ? null : free[Math.floor(this.random() * free.length)]!;
  }

  /** Moves the snake one cell; a collision ends the game. */
  step(direction: Direction): StepResult {
    this.steps += 1;
    const [hx, hy] = this.snake[0]!;
    const [dx, dy] = direction === "up" ? [0, -1] : direction === "down" ? [0, 1] : direction === "left" ? [-1, 0] : [1, 0];
    const head: Cell = [hx + dx, hy + dy];
    if (head[0] < 0 || head[1] < 0 || head[0] >= this.width || head[1] >= this.height) return "wall";
    const eats = this.food !== null && head[0] === this.food[0] && head[1] === this.food[1];
    // The tail leaves its cell in the same step unless the snake grows.
    const body = eats ? this.snake : this.snake.slice(0, -1);
    if (body.some(([x, y]) => x === head[0] && y === head[1])) return "self";
    this.snake.unshift(head);
    if (!eats) {
      this.snake.pop();
      return "moved";
    }
    this.eaten += 1;
    this.placeFood();
    return this.food === null ? "won" : "ate";
  }
}
