/**
 * Circle packing: start from a simple layout, relax it with a penalty method (gradient or
 * Adam steps on -sum(r) + penalty * violations^2), then shrink radii until it is exactly feasible.
 */
import type { Json, SolveContext } from "@evolve/contract";

export const params = {
  iterations: 400, // evolve:range 10..20000 int
  stepSize: 0.004, // evolve:range 0.0005..0.05
  finalStepRatio: 0.05, // evolve:range 0.0001..1
  penaltyStart: 10, // evolve:range 1..1000
  penaltyGrowth: 2, // evolve:range 1..10
  penaltyPhases: 8, // evolve:range 1..20 int
  restarts: 1, // evolve:range 1..60 int
  jitter: 0.01, // evolve:range 0..0.2
  init: "grid", // evolve:choices "grid" | "random" | "hex"
  optimizer: "gradient", // evolve:choices "gradient" | "adam"
};

// Flat layout [x0, y0, r0, x1, y1, r1, ...].
type Layout = Float64Array;

function initialLayout(n: number, random: () => number): Layout {
  const c = new Float64Array(3 * n);
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  for (let i = 0; i < n; i++) {
    let x: number, y: number;
    if (params.init === "random") {
      x = 0.1 + 0.8 * random();
      y = 0.1 + 0.8 * random();
    } else {
      const row = Math.floor(i / cols), col = i % cols;
      const shift = params.init === "hex" && row % 2 === 1 ? 0.5 : 0;
      x = (Math.min(col + 0.5 + shift, cols - 0.01)) / (cols + (params.init === "hex" ? 0.5 : 0));
      y = (row + 0.5) / rows;
    }
    c[3 * i] = Math.min(0.99, Math.max(0.01, x + params.jitter * (random() - 0.5)));
    c[3 * i + 1] = Math.min(0.99, Math.max(0.01, y + params.jitter * (random() - 0.5)));
    c[3 * i + 2] = 0.5 / Math.max(cols, rows);
  }
  return c;
}

function addGradient(c: Layout, n: number, penalty: number, g: Float64Array): void {
  g.fill(0);
  for (let i = 0; i < n; i++) {
    const x = c[3 * i]!, y = c[3 * i + 1]!, r = c[3 * i + 2]!;
    g[3 * i + 2]! -= 1;
    const walls: [number, number, number][] = [[r - x, -1, 0], [r + x - 1, 1, 0], [r - y, 0, -1], [r + y - 1, 0, 1]];
    for (const [v, dx, dy] of walls)
      if (v > 0) {
        g[3 * i]! += 2 * penalty * v * dx;
        g[3 * i + 1]! += 2 * penalty * v * dy;
        g[3 * i + 2]! += 2 * penalty * v;
      }
    if (r < 0) g[3 * i + 2]! += 2 * penalty * r;
    for (let j = i + 1; j < n; j++) {
      const dx = c[3 * j]! - x, dy = c[3 * j + 1]! - y;
      const d = Math.sqrt(dx * dx + dy * dy) + 1e-12;
      const v = r + c[3 * j + 2]! - d;
      if (v <= 0) continue;
      const k = 2 * penalty * v;
      g[3 * i + 2]! += k;
      g[3 * j + 2]! += k;
      g[3 * i]! += (k * dx) / d;
      g[3 * i + 1]! += (k * dy) / d;
      g[3 * j]! -= (k * dx) / d;
      g[3 * j + 1]! -= (k * dy) / d;
    }
  }
}

/** Shrinks radii until every containment and non-overlap constraint holds; returns the sum. */
function makeFeasible(c: Layout, n: number): number {
  const margin = 1e-12;
  for (let i = 0; i < n; i++) {
    const x = Math.min(1, Math.max(0, c[3 * i]!)), y = Math.min(1, Math.max(0, c[3 * i + 1]!));
    c[3 * i] = x;
    c[3 * i + 1] = y;
    c[3 * i + 2] = Math.max(0, Math.min(c[3 * i + 2]!, x, 1 - x, y, 1 - y) - margin);
  }
  for (let pass = 0; pass < 200; pass++) {
    let changed = false;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const d = Math.hypot(c[3 * i]! - c[3 * j]!, c[3 * i + 1]! - c[3 * j + 1]!);
        const s = c[3 * i + 2]! + c[3 * j + 2]!;
        if (s > 0 && s > d - margin) {
          const k = Math.max(0, d - margin) / s;
          c[3 * i + 2]! *= k;
          c[3 * j + 2]! *= k;
          changed = true;
        }
      }
    if (!changed) break;
  }
  let sum = 0;
  for (let i = 0; i < n; i++) sum += c[3 * i + 2]!;
  return sum;
}

function relax(c: Layout, n: number): void {
  const g = new Float64Array(3 * n), m = new Float64Array(3 * n), v = new Float64Array(3 * n);
  const phaseLength = Math.max(1, Math.ceil(params.iterations / params.penaltyPhases));
  let penalty = params.penaltyStart;
  for (let t = 1; t <= params.iterations; t++) {
    if (t % phaseLength === 0) penalty *= params.penaltyGrowth;
    const lr = params.stepSize * Math.pow(params.finalStepRatio, t / params.iterations);
    addGradient(c, n, penalty, g);
    if (params.optimizer === "gradient") {
      // Plain descent, scaled so the largest coordinate step is at most lr.
      let largest = 1;
      for (let k = 0; k < 3 * n; k++) largest = Math.max(largest, Math.abs(g[k]!));
      for (let k = 0; k < 3 * n; k++) c[k]! -= (lr * g[k]!) / largest;
      continue;
    }
    for (let k = 0; k < 3 * n; k++) {
      m[k] = 0.9 * m[k]! + 0.1 * g[k]!;
      v[k] = 0.999 * v[k]! + 0.001 * g[k]! * g[k]!;
      c[k]! -= (lr * (m[k]! / (1 - 0.9 ** t))) / (Math.sqrt(v[k]! / (1 - 0.999 ** t)) + 1e-9);
    }
  }
}

/** Input `{ n }` → `{ circles: [[x, y, r], ...] }`. */
export function solveCirclePacking(input: Json, ctx: SolveContext): Json {
  const n = typeof input === "object" && input !== null && !Array.isArray(input) ? input["n"] : undefined;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) throw new Error("input must be { n: positive integer }");
  let best: Layout | null = null;
  let bestSum = -1;
  const started = Date.now();
  for (let attempt = 0; attempt < params.restarts; attempt++) {
    // Stop restarting when another attempt of the same length would miss the deadline.
    const perAttempt = attempt === 0 ? 0 : (Date.now() - started) / attempt;
    if (attempt > 0 && Date.now() + perAttempt * 1.5 > ctx.deadline - 500) break;
    const c = initialLayout(n, () => ctx.random());
    relax(c, n);
    const sum = makeFeasible(c, n);
    if (sum > bestSum) {
      bestSum = sum;
      best = c;
    }
  }
  if (best === null) throw new Error("params.restarts must be at least 1");
  const layout = best;
  const circles: Json[] = [];
  for (let i = 0; i < n; i++) circles.push([layout[3 * i]!, layout[3 * i + 1]!, layout[3 * i + 2]!]);
  return { circles };
}
