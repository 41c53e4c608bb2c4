export function clampAll(values: number[], low: number, high: number): number[] {
  const [lo, hi] = low <= high ? [low, high] : [high, low];
  return values.map((v) => Math.min(hi, Math.max(lo, v)));
}
