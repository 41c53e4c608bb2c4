export function fizzLabels(n: number, rules: [number, string][]): string[] {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    const label = rules.filter(([d]) => i % d === 0).map(([, word]) => word).join("");
    out.push(label === "" ? String(i) : label);
  }
  return out;
}
