export function summarizeRanges(xs: number[]): string[] {
  const sorted = [...new Set(xs)].sort((a, b) => a - b);
  const out: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j++;
    out.push(i === j ? String(sorted[i]) : `${sorted[i]}..${sorted[j]}`);
    i = j + 1;
  }
  return out;
}
