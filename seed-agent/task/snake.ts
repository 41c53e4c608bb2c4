/**
 * Snake: pick a safe move toward the food. Options: look a few moves ahead, and avoid
 * moves that leave the head in a region too small for the body (flood fill).
 */
import type { Json } from "@evolve/contract";

export const params = {
  strategy: "greedy", // evolve:choices "greedy" | "lookahead"
  lookaheadDepth: 2, // evolve:range 1..6 int
  floodFill: false, // evolve:flag
  spaceWeight: 0.5, // evolve:range 0..5
  distanceWeight: 1, // evolve:range 0..5
};

type Move = "up" | "down" | "left" | "right";
type Cell = [number, number];
const MOVES: readonly [Move, number, number][] = [["up", 0, -1], ["down", 0, 1], ["left", -1, 0], ["right", 1, 0]];

interface Board {
  width: number;
  height: number;
  snake: Cell[];
  food: Cell | null;
}

function parseCell(v: Json | undefined): Cell | null {
  return Array.isArray(v) && typeof v[0] === "number" && typeof v[1] === "number" ? [v[0], v[1]] : null;
}

function parseBoard(input: Json): Board {
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw new Error("board must be an object");
  const { width, height, snake, food } = input;
  if (typeof width !== "number" || typeof height !== "number" || !Array.isArray(snake)) throw new Error("bad board");
  const cells = snake.map(parseCell).filter((c): c is Cell => c !== null);
  return { width, height, snake: cells, food: parseCell(food) };
}

/** The snake after moving (or null if it dies); grows when it eats. */
function advance(board: Board, snake: Cell[], dx: number, dy: number): { snake: Cell[]; ate: boolean } | null {
  const head = snake[0]!;
  const next: Cell = [head[0] + dx, head[1] + dy];
  if (next[0] < 0 || next[1] < 0 || next[0] >= board.width || next[1] >= board.height) return null;
  const ate = board.food !== null && next[0] === board.food[0] && next[1] === board.food[1];
  const body = ate ? snake : snake.slice(0, -1);
  if (body.some(([x, y]) => x === next[0] && y === next[1])) return null;
  return { snake: [next, ...body], ate };
}

/** Cells reachable from the head, counted up to `limit`. */
function freeSpace(board: Board, snake: Cell[], limit: number): number {
  const blocked = new Set(snake.slice(1).map(([x, y]) => y * board.width + x));
  const head = snake[0]!;
  const seen = new Set([head[1] * board.width + head[0]]);
  const queue: Cell[] = [head];
  let count = 0;
  while (queue.length > 0 && count < limit) {
    const [x, y] = queue.shift()!;
    for (const [, dx, dy] of MOVES) {
      const nx = x + dx, ny = y + dy, key = ny * board.width + nx;
      if (nx < 0 || ny < 0 || nx >= board.width || ny >= board.height || blocked.has(key) || seen.has(key)) continue;
      seen.add(key);
      queue.push([nx, ny]);
      count += 1;
    }
  }
  return count;
}

function evaluate(board: Board, snake: Cell[], ate: boolean, depth: number): number {
  const head = snake[0]!;
  const distance = board.food === null ? 0 : Math.abs(head[0] - board.food[0]) + Math.abs(head[1] - board.food[1]);
  let value = (ate ? 100 : 0) - params.distanceWeight * distance;
  if (params.floodFill) {
    const space = freeSpace(board, snake, snake.length * 2);
    if (space < snake.length) value -= 1000;
    value += params.spaceWeight * Math.min(space, snake.length * 2);
  }
  if (params.strategy === "lookahead" && depth > 1 && !ate) {
    let best = -Infinity;
    for (const [, dx, dy] of MOVES) {
      const next = advance(board, snake, dx, dy);
      if (next !== null) best = Math.max(best, evaluate(board, next.snake, next.ate, depth - 1));
    }
    value = best === -Infinity ? value - 10_000 : 0.5 * value + 0.5 * best;
  }
  return value;
}

export function solveSnake(input: Json): Json {
  const board = parseBoard(input);
  let bestMove: Move = "up";
  let bestValue = -Infinity;
  for (const [move, dx, dy] of MOVES) {
    const next = advance(board, board.snake, dx, dy);
    const value = next === null ? -1e9 : evaluate(board, next.snake, next.ate, params.lookaheadDepth);
    if (value > bestValue) {
      bestValue = value;
      bestMove = move;
    }
  }
  return bestMove;
}
