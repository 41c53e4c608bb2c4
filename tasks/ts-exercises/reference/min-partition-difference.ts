export function minPartitionDifference(weights: number[]): number {
  const total = weights.reduce((s, w) => s + w, 0);
  const reachable = new Uint8Array(total + 1);
  reachable[0] = 1;
  for (const w of weights) for (let s = total; s >= w; s--) if (reachable[s - w] === 1) reachable[s] = 1;
  for (let s = Math.floor(total / 2); s >= 0; s--) if (reachable[s] === 1) return total - 2 * s;
  return total;
}
