export function maxDepth(expr: string): number {
  let depth = 0;
  let deepest = 0;
  for (const c of expr) {
    if (c === "(") deepest = Math.max(deepest, ++depth);
    else if (c === ")" && --depth < 0) return -1;
  }
  return depth === 0 ? deepest : -1;
}
