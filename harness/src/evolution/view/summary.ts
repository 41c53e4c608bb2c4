/** The end-of-run summary: best generation against the seed, counts, spend, where things are. */
import type { GenerationRecord } from "../../archive/index.js";
import { bestGeneration, compareIds } from "../../selection/index.js";
import { formatScore } from "../../report/index.js";
import { approvalState } from "../../supervision/index.js";
import { formatDuration } from "./progress.js";
import type { LoopEnd } from "../context/index.js";
import { diagnose, diagnosisLines, type DiagnosisContext, type RunDiagnosis } from "./run-diagnosis.js";

/** What a finished (or stopped) run amounts to. */
export interface RunSummary {
  runId: string;
  runDir: string;
  end: LoopEnd;
  children: number;
  requested: number;
  valid: number;
  invalid: number;
  /** Children whose tree an earlier generation already had (recorded, not judged again). */
  duplicates: number;
  seed: GenerationRecord | null;
  best: GenerationRecord | null;
  /** The meta agent's tokens and cost. */
  tokens: number;
  costUsd: number | null;
  /** The task agent's own model use at solve time (a task that needs a model); null: none. */
  solve: { calls: number; tokens: number; costUsd: number | null } | null;
  model: string | null;
  wallMs: number;
  /** Children that asked for approval (run policy), by where they stand now; null: none asked. */
  approvals: { pending: number; approved: number; rejected: number } | null;
  /** The HTML report, or null when none was written (with the reason). */
  report: { path: string } | { path: null; reason: string };
  /** Why the run could not improve, when the records say (a start that fails everywhere, grader errors). */
  diagnosis: RunDiagnosis;
}

/** Summarises the records of a run. */
export function summarise(
  records: readonly GenerationRecord[],
  info: Pick<RunSummary, "runId" | "runDir" | "end" | "requested" | "model" | "wallMs" | "report"> & { task?: string },
): RunSummary {
  const { task, ...shown } = info;
  const children = records.filter((r) => r.parent !== null);
  let costUsd: number | null = 0;
  for (const r of records) costUsd = costUsd === null || r.costUsd === null ? null : costUsd + r.costUsd;
  return {
    ...shown,
    children: children.length,
    valid: children.filter((r) => r.status.kind === "valid").length,
    invalid: children.filter((r) => r.status.kind === "invalid").length,
    duplicates: children.filter((r) => r.status.kind === "duplicate").length,
    seed: records.find((r) => r.parent === null) ?? null,
    best: bestGeneration(records),
    tokens: records.reduce((s, r) => s + r.tokens.prompt + r.tokens.completion, 0),
    costUsd,
    solve: solveTotals(records),
    approvals: countApprovals(records),
    diagnosis: diagnose(records, { task: task ?? "the task", offline: info.model === null } satisfies DiagnosisContext),
  };
}

function solveTotals(records: readonly GenerationRecord[]): RunSummary["solve"] {
  const solving = records.flatMap((r) => (r.solve === undefined ? [] : [r.solve]));
  if (solving.length === 0) return null;
  let costUsd: number | null = 0;
  for (const s of solving) costUsd = costUsd === null || s.costUsd === null ? null : costUsd + s.costUsd;
  return { calls: solving.reduce((n, s) => n + s.calls, 0), tokens: solving.reduce((n, s) => n + s.tokens.prompt + s.tokens.completion, 0), costUsd };
}

function countApprovals(records: readonly GenerationRecord[]): RunSummary["approvals"] {
  const asked = records.filter((r) => r.approval !== undefined);
  if (asked.length === 0) return null;
  const counts = { pending: 0, approved: 0, rejected: 0 };
  for (const r of asked) {
    const state = approvalState(r);
    if (state !== "not_required") counts[state]++;
  }
  return counts;
}

const ENDS: Record<LoopEnd, string> = {
  finished: "finished",
  interrupted: "interrupted (resume it with `evolve resume`)",
  budget_spent: "stopped: the LLM budget is spent",
  no_valid_parent: "stopped: no valid generation to select as a parent",
};

/** The summary as the lines `evolve run` prints. */
export function formatSummary(s: RunSummary): string[] {
  const duplicates = s.duplicates > 0 ? `, ${s.duplicates} duplicates` : "";
  const lines = [`run ${s.runId} ${ENDS[s.end]}: ${s.children}/${s.requested} children (${s.valid} valid, ${s.invalid} invalid${duplicates}) in ${formatDuration(s.wallMs)}`];
  const seed = s.seed;
  if (s.best === null || seed === null) {
    lines.push("best: none (no valid, evaluated generation)");
  } else {
    const versus = (key: "visible" | "heldout"): string => {
      const mine = s.best?.scores[key] ?? null;
      const theirs = seed.scores[key];
      const delta = mine !== null && theirs !== null ? ` (${mine - theirs >= 0 ? "+" : ""}${(mine - theirs).toFixed(4)})` : "";
      return `${formatScore(mine)} vs seed ${formatScore(theirs)}${delta}`;
    };
    const which = s.best.id === seed.id ? " (the seed itself: no child beat it)" : ` (depth ${s.best.depth})`;
    lines.push(`best: ${s.best.id}${which}`);
    lines.push(`  visible  ${versus("visible")}`);
    lines.push(`  held-out ${versus("heldout")}`);
  }
  if (s.approvals !== null) {
    const { pending, approved, rejected } = s.approvals;
    lines.push(`approval: ${pending} pending${pending > 0 ? ` (evolve pending ${s.runId})` : ""}, ${approved} approved, ${rejected} rejected`);
  }
  lines.push(...diagnosisLines(s.diagnosis, s.runId));
  const cost = s.costUsd === null ? "cost unknown (no price for the model)" : `$${s.costUsd.toFixed(4)}`;
  if (s.solve === null) lines.push(`llm: ${s.model === null ? "offline strategy (no LLM)" : `model ${s.model}`}, ${s.tokens} tokens, ${cost}`);
  else {
    const solveCost = s.solve.costUsd === null ? "cost unknown" : `$${s.solve.costUsd.toFixed(4)}`;
    lines.push(`llm: ${s.model === null ? "no model" : `model ${s.model}`}; meta agent ${s.tokens} tokens, ${cost}; task agent ${s.solve.tokens} tokens in ${s.solve.calls} calls at solve time, ${solveCost}`);
  }
  lines.push(`archive: ${s.runDir}`);
  lines.push(s.report.path === null ? `report: not written (${s.report.reason})` : `report: ${s.report.path}`);
  return lines;
}
