export function spiral(matrix: number[][]): number[] {
  const out: number[] = [];
  let top = 0;
  let bottom = matrix.length - 1;
  let left = 0;
  let right = (matrix[0]?.length ?? 0) - 1;
  const at = (r: number, c: number): number => matrix[r]?.[c] ?? 0;
  while (top <= bottom && left <= right) {
    for (let c = left; c <= right; c++) out.push(at(top, c));
    for (let r = top + 1; r <= bottom; r++) out.push(at(r, right));
    if (top < bottom) for (let c = right - 1; c >= left; c--) out.push(at(bottom, c));
    if (left < right) for (let r = bottom - 1; r > top; r--) out.push(at(r, left));
    top++;
    bottom--;
    left++;
    right--;
  }
  return out;
}
