export function evaluate(expr: string): number {
  const tokens = expr.match(/\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const primary = (): number => {
    const token = tokens[i++];
    if (token === "-") return -primary();
    if (token === "+") return primary();
    if (token === "(") {
      const value = sum();
      i++; // ")"
      return value;
    }
    return Number(token);
  };
  const product = (): number => {
    let value = primary();
    while (peek() === "*" || peek() === "/") value = tokens[i++] === "*" ? value * primary() : value / primary();
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (peek() === "+" || peek() === "-") value = tokens[i++] === "+" ? value + product() : value - product();
    return value;
  };
  return sum();
}
