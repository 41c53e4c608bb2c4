function parse(text: string): [number, number] {
  const [p, q] = text.split("/");
  return [Number(p), q === undefined ? 1 : Number(q)];
}

function gcd(a: number, b: number): number {
  return b === 0 ? Math.abs(a) : gcd(b, a % b);
}

export function addFractions(a: string, b: string): string {
  const [p1, q1] = parse(a);
  const [p2, q2] = parse(b);
  const p = p1 * q2 + p2 * q1;
  const q = q1 * q2;
  if (p === 0) return "0";
  const g = gcd(p, q);
  const num = p / g;
  const den = q / g;
  return den === 1 ? String(num) : `${num}/${den}`;
}
