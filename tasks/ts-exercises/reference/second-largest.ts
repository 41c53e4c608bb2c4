export function secondLargest(xs: number[]): number | null {
  const distinct = [...new Set(xs)].sort((a, b) => b - a);
  return distinct[1] ?? null;
}
