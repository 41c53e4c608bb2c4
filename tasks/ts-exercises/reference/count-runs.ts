export function countRuns(bits: string): number {
  return bits.split("0").filter((run) => run.length > 0).length;
}
