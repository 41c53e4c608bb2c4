export function sudokuStatus(grid: number[][]): "solved" | "valid" | "invalid" {
  if (grid.length !== 9 || grid.some((row) => row.length !== 9 || row.some((v) => !Number.isInteger(v) || v < 0 || v > 9))) return "invalid";
  const groups: number[][] = [];
  for (let i = 0; i < 9; i++) {
    groups.push(grid[i] ?? []);
    groups.push(grid.map((row) => row[i] ?? 0));
    const box: number[] = [];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) box.push(grid[3 * Math.floor(i / 3) + r]?.[3 * (i % 3) + c] ?? 0);
    groups.push(box);
  }
  for (const group of groups) {
    const filled = group.filter((v) => v !== 0);
    if (new Set(filled).size !== filled.length) return "invalid";
  }
  return grid.every((row) => row.every((v) => v !== 0)) ? "solved" : "valid";
}
