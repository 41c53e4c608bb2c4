export function convertBase(digits: number[], from: number, to: number): number[] | null {
  if (digits.length === 0 || from < 2 || to < 2) return null;
  if (digits.some((d) => !Number.isInteger(d) || d < 0 || d >= from)) return null;
  let value = digits.reduce((acc, d) => acc * from + d, 0);
  if (value === 0) return [0];
  const out: number[] = [];
  while (value > 0) {
    out.unshift(value % to);
    value = Math.floor(value / to);
  }
  return out;
}
