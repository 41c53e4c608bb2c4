export function runningTotal(xs: number[]): number[] {
  let sum = 0;
  return xs.map((x) => (sum += x));
}
