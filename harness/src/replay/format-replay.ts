/** The replay's score table and verdict line, in words. */
import { formatScore } from "../report/index.js";
import type { ReplayReport } from "./replay-lineage.js";

const SPLIT_NAMES = { visible: "visible", heldout: "held-out", stage1: "stage 1" } as const;

/** Recorded vs replayed scores per split, for each re-evaluated generation. */
export function scoreLines(report: ReplayReport): string[] {
  const lines: string[] = [];
  for (const s of report.scores) {
    lines.push(`${s.generation}  split     recorded  replayed  difference`);
    for (const c of s.splits) {
      const diff = c.difference === null ? (c.recorded === null && c.replayed === null ? "" : "missing") : `${c.difference >= 0 ? "+" : "−"}${Math.abs(c.difference).toExponential(2)}`;
      lines.push(`       ${SPLIT_NAMES[c.split].padEnd(8)}  ${formatScore(c.recorded).padEnd(8)}  ${formatScore(c.replayed).padEnd(8)}  ${diff}`);
    }
  }
  return lines;
}

/** "verdict: reproduced" / "verdict: diverged at g0003: …" / "verdict: scores drifted by 0.0123 at g0003". */
export function verdictLine(report: ReplayReport): string {
  const v = report.verdict;
  switch (v.kind) {
    case "reproduced":
      return `verdict: reproduced (${report.lineage.length} step(s), scores within ${report.tolerance})`;
    case "diverged":
      return `verdict: diverged at ${v.generation}: ${v.how}`;
    case "drifted":
      return `verdict: scores drifted by ${Number.isFinite(v.drift) ? v.drift.toPrecision(4) : "a missing score"} at ${v.generation} (tolerance ${report.tolerance})`;
  }
}
