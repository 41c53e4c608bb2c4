export function shortestPath(grid: string[]): number {
  const rows = grid.length;
  const cols = grid[0]?.length ?? 0;
  let start = -1;
  grid.forEach((row, r) => {
    const c = row.indexOf("S");
    if (c >= 0) start = r * cols + c;
  });
  if (start < 0) return -1;
  const dist = new Map<number, number>([[start, 0]]);
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const cell = queue[head] ?? 0;
    const r = Math.floor(cell / cols);
    const c = cell % cols;
    const d = dist.get(cell) ?? 0;
    if (grid[r]?.[c] === "E") return d;
    for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
      const nr = r + dr;
      const nc = c + dc;
      const next = nr * cols + nc;
      if (nr < 0 || nr >= rows || nc < 0 || nc >= cols || grid[nr]?.[nc] === "#" || dist.has(next)) continue;
      dist.set(next, d + 1);
      queue.push(next);
    }
  }
  return -1;
}
