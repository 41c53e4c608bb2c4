/**
 * Host-side (trusted) script that computes the reference sums of radii used by the grader:
 * penalty-method gradient descent with many random restarts, then an exact feasibility
 * repair. Run: npx tsx tasks/circle-packing/compute-references.ts 10 12 26
 * The values it prints for each n are written into visible.json / heldout.json.
 */

import { seededRandom } from "evolve/task";

type Circles = Float64Array; // [x0, y0, r0, x1, y1, r1, ...]

/** Gradient of -sum r + lambda * (squared violations), written into g; returns nothing. */
function gradient(c: Circles, n: number, lambda: number, g: Float64Array): void {
  g.fill(0);
  for (let i = 0; i < n; i++) {
    const x = c[3 * i]!, y = c[3 * i + 1]!, r = c[3 * i + 2]!;
    g[3 * i + 2]! -= 1;
    const walls: [number, number, number][] = [
      [r - x, -1, 0], [r + x - 1, 1, 0], [r - y, 0, -1], [r + y - 1, 0, 1],
    ];
    for (const [v, dx, dy] of walls)
      if (v > 0) {
        g[3 * i]! += 2 * lambda * v * dx;
        g[3 * i + 1]! += 2 * lambda * v * dy;
        g[3 * i + 2]! += 2 * lambda * v;
      }
    if (r < 0) g[3 * i + 2]! += 2 * lambda * r;
    for (let j = i + 1; j < n; j++) {
      const dx = c[3 * j]! - x, dy = c[3 * j + 1]! - y;
      const d = Math.sqrt(dx * dx + dy * dy) + 1e-12;
      const v = r + c[3 * j + 2]! - d;
      if (v > 0) {
        const k = 2 * lambda * v;
        g[3 * i + 2]! += k;
        g[3 * j + 2]! += k;
        g[3 * i]! += (k * dx) / d;
        g[3 * i + 1]! += (k * dy) / d;
        g[3 * j]! -= (k * dx) / d;
        g[3 * j + 1]! -= (k * dy) / d;
      }
    }
  }
}

/** Shrinks radii until every constraint holds exactly (with a tiny margin). */
function repair(c: Circles, n: number): number {
  for (let i = 0; i < n; i++) {
    const x = c[3 * i]!, y = c[3 * i + 1]!;
    c[3 * i + 2] = Math.max(0, Math.min(c[3 * i + 2]!, x, 1 - x, y, 1 - y) - 1e-12);
  }
  for (let pass = 0; pass < 100; pass++) {
    let changed = false;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const d = Math.hypot(c[3 * i]! - c[3 * j]!, c[3 * i + 1]! - c[3 * j + 1]!);
        const s = c[3 * i + 2]! + c[3 * j + 2]!;
        if (s > d - 1e-12 && s > 0) {
          const k = Math.max(0, d - 1e-12) / s;
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

function optimise(n: number, random: () => number, iterations: number): { sum: number; c: Circles } {
  const c = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    c[3 * i] = 0.1 + 0.8 * random();
    c[3 * i + 1] = 0.1 + 0.8 * random();
    c[3 * i + 2] = 0.02 + 0.05 * random();
  }
  const g = new Float64Array(3 * n), m = new Float64Array(3 * n), v = new Float64Array(3 * n);
  let lambda = 10;
  for (let t = 1; t <= iterations; t++) {
    // Step size decays geometrically so the final iterate settles instead of jittering.
    const lr = 0.01 * Math.pow(1e-3, t / iterations);
    if (t % Math.ceil(iterations / 12) === 0) lambda *= 3;
    gradient(c, n, lambda, g);
    for (let k = 0; k < 3 * n; k++) {
      m[k] = 0.9 * m[k]! + 0.1 * g[k]!;
      v[k] = 0.999 * v[k]! + 0.001 * g[k]! * g[k]!;
      c[k]! -= (lr * (m[k]! / (1 - 0.9 ** t))) / (Math.sqrt(v[k]! / (1 - 0.999 ** t)) + 1e-9);
    }
  }
  return { sum: repair(c, n), c };
}

const restarts = Number(process.env["RESTARTS"] ?? 60);
const iterations = Number(process.env["ITERATIONS"] ?? 20000);
for (const arg of process.argv.slice(2)) {
  const n = Number(arg);
  const random = seededRandom(1000 + n);
  let best = 0;
  for (let k = 0; k < restarts; k++) best = Math.max(best, optimise(n, random, iterations).sum);
  console.log(JSON.stringify({ n, best: Number(best.toFixed(6)), restarts, iterations }));
}
