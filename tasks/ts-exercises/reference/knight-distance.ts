export function knightDistance(from: string, to: string): number {
  const square = (s: string): [number, number] => [s.charCodeAt(0) - 97, Number(s.slice(1)) - 1];
  const [tx, ty] = square(to);
  const seen = new Set([from]);
  let frontier = [square(from)];
  for (let moves = 0; frontier.length > 0; moves++) {
    const next: [number, number][] = [];
    for (const [x, y] of frontier) {
      if (x === tx && y === ty) return moves;
      for (const [dx, dy] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]] as const) {
        const nx = x + dx;
        const ny = y + dy;
        const key = `${String.fromCharCode(97 + nx)}${ny + 1}`;
        if (nx < 0 || nx > 7 || ny < 0 || ny > 7 || seen.has(key)) continue;
        seen.add(key);
        next.push([nx, ny]);
      }
    }
    frontier = next;
  }
  return -1;
}
