/**
 * The task agent's model in a replay (a task that needs one): its calls are answered from the
 * generation's solve-transcript.jsonl by what they ask (keyed-replay-port.ts), never by an
 * endpoint, and its budget starts from what the run's task agents had spent before that
 * generation, as the run's did.
 */
import { readFile } from "node:fs/promises";
import { generationPaths, type GenerationRecord } from "../archive/index.js";
import { openSolveLlm, solveSpentOf, type RunContext, type SolveLlm } from "../evolution/index.js";
import { BudgetLedger, createKeyedReplayPort, parseTranscript, type ReplayPort } from "../llm/index.js";

/** The replayed generation's solve-time model, and the port (to ask it what diverged). */
export interface ReplayedSolve {
  solveLlm: SolveLlm;
  port: ReplayPort | null;
  /** A clause for the replay's report (a divergence); "" when there was none. */
  note(): string;
}

/**
 * Opens the solve-time model of `g` for a replay in `ctx`: `part` "drafts" serves the calls of
 * its ctx.evaluate drafts (the first `solve.draftEntries` lines), "evaluation" those of its own.
 */
export async function replayedSolve(ctx: RunContext, runDir: string, generations: readonly GenerationRecord[], g: GenerationRecord, part: "drafts" | "evaluation"): Promise<ReplayedSolve> {
  const solve = ctx.llm.solve;
  if (solve === undefined || ctx.task.manifest.needsModel !== true || !ctx.llm.setup.available) {
    return { solveLlm: openSolveLlm(ctx), port: null, note: () => "" };
  }
  // Absent: the task agent made no call (or the generation was never evaluated).
  const text = await readFile(generationPaths(runDir, g.id).solveTranscript, "utf8").catch(() => "");
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const drafts = g.solve?.draftEntries ?? 0;
  const mine = part === "drafts" ? lines.slice(0, drafts) : lines.slice(drafts);
  const port = createKeyedReplayPort(parseTranscript(mine.join("\n")).entries, ctx.llm.setup.model);
  const before = solveSpentOf(generations.filter((r) => r.createdAt < g.createdAt));
  const replayCtx: RunContext = { ...ctx, llm: { ...ctx.llm, solve: { ...solve, port, runLedger: new BudgetLedger(solve.runLedger.label, solve.runLedger.limits, before) } } };
  return {
    solveLlm: openSolveLlm(replayCtx),
    port,
    note: () => (port.divergence === null ? "" : `; ${port.divergence}`),
  };
}
