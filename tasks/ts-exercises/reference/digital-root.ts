export function digitalRoot(n: number): number {
  let value = n;
  while (value >= 10) value = [...String(value)].reduce((sum, d) => sum + Number(d), 0);
  return value;
}
