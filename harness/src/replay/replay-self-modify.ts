/**
 * Step 2 of a replay: re-run one self-modification in a fresh container, the parent's
 * rebuilt tree in, the recorded LLM answers served from the child's transcript, the same
 * seed, and compare what comes out with what was recorded.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GenerationRecord } from "../archive/index.js";
import { diffDirectories, generationPaths, readPatch } from "../archive/index.js";
import { attemptViews, childRequest, selfModifyStep, type RunContext, type SelfModifyResult } from "../evolution/index.js";
import { BudgetLedger, createReplayPort, parseTranscript } from "../llm/index.js";
import { spentBefore } from "./replay-context.js";
import { replayedSolve } from "./replay-solve.js";

/** What one replayed self-modification showed. */
export interface SelfModifyCheck {
  readonly generation: string;
  readonly same: boolean;
  /** How it matched or diverged, in words. */
  readonly detail: string;
}

async function transcriptEntries(runDir: string, id: string): Promise<{ entries: ReturnType<typeof parseTranscript>["entries"]; problem: string | null }> {
  let text = "";
  try {
    text = await readFile(generationPaths(runDir, id).transcript, "utf8");
  } catch {
    return { entries: [], problem: "transcript.jsonl missing" };
  }
  const parsed = parseTranscript(text);
  return { entries: parsed.entries, problem: parsed.problems.length === 0 ? null : `transcript line ${parsed.problems[0]?.line}: ${parsed.problems[0]?.reason}` };
}

function changeList(changes: readonly { path: string; additions: number; deletions: number }[]): string {
  return changes.length === 0 ? "no files" : changes.map((c) => `${c.path} +${c.additions} −${c.deletions}`).join(", ");
}

/** Replays `child`'s self-modification from `parentDir` (its parent's rebuilt tree). */
export async function replaySelfModify(
  ctx: RunContext,
  runDir: string,
  generations: readonly GenerationRecord[],
  lineage: readonly GenerationRecord[],
  child: GenerationRecord,
  parentDir: string,
  workDir: string,
): Promise<SelfModifyCheck> {
  const parent = lineage.at(-1);
  if (parent === undefined || parent.id !== child.parent || parent.snapshotHash === null) {
    return { generation: child.id, same: false, detail: `parent ${child.parent ?? "none"} has no rebuilt tree` };
  }
  const transcript = await transcriptEntries(runDir, child.id);
  const port = ctx.llm.setup.available ? createReplayPort(transcript.entries, ctx.llm.setup.model) : null;
  const stepCtx: RunContext = {
    ...ctx,
    llm: { ...ctx.llm, port, runLedger: new BudgetLedger("run", ctx.llm.runLedger.limits, spentBefore(generations, child)) },
  };
  // The attempts its request listed, rebuilt from the same records (they are never rewritten).
  // A run that shows attempts sent a list to every child, empty ones included (a record keeps
  // only a non-empty list), and the seed acts on a list being there at all: so does the replay.
  const byId = new Map(generations.map((g) => [g.id, g]));
  const shown = (child.attempts ?? []).flatMap((id) => byId.get(id) ?? []);
  const attempts = child.attempts !== undefined || ctx.economy.attempts > 0 ? attemptViews(shown, parent.id, generations) : undefined;
  const takeTo = join(workDir, "tree");
  // ctx.evaluate drafts of a task that needs a model: the task agent's answers come from the child's solve transcript.
  const solve = await replayedSolve(ctx, runDir, generations, child, "drafts");
  const result = await selfModifyStep({
    ctx: stepCtx,
    solveLlm: solve.solveLlm,
    generationId: child.id,
    parentSnapshotDir: parentDir,
    parentBuildDir: await ctx.builds.get(parentDir, parent.snapshotHash),
    takeTo,
    seed: child.seed,
    request: childRequest(ctx, child, parent, lineage, attempts),
  });
  solve.solveLlm.close();
  const divergence = port?.divergence ?? null;
  const llmNote = (divergence !== null ? `; ${divergence}` : port !== null && port.remaining() > 0 ? `; ${port.remaining()} recorded LLM call(s) never asked for` : "") + solve.note();
  return { generation: child.id, ...(await compareRewrite(runDir, child, result.failure, { parentDir, takeTo, llmNote })) };
}

/** The replayed rewrite against the recorded one: the same failure, the same patch, or how they differ. */
async function compareRewrite(
  runDir: string,
  child: GenerationRecord,
  failure: SelfModifyResult["failure"],
  at: { parentDir: string; takeTo: string; llmNote: string },
): Promise<{ same: boolean; detail: string }> {
  const { llmNote } = at;
  const recordedFailure = child.status.kind === "invalid" && (child.status.stage === "self_modify" || child.status.stage === "extract") ? child.status : null;
  if (recordedFailure !== null) {
    if (failure !== null && failure.stage === recordedFailure.stage && failure.code === recordedFailure.code) return { same: true, detail: `same failure (${recordedFailure.stage}: ${recordedFailure.code})` };
    const got = failure === null ? "a usable tree" : `${failure.stage}: ${failure.code}`;
    return { same: false, detail: `recorded failure ${recordedFailure.stage}: ${recordedFailure.code}, replay gave ${got}${llmNote}` };
  }
  if (failure !== null) return { same: false, detail: `recorded a rewrite, replay failed at ${failure.stage} (${failure.code}: ${failure.message})${llmNote}` };
  const replayed = await diffDirectories(at.parentDir, at.takeTo);
  if (!replayed.ok) return { same: false, detail: `replay's tree does not read: ${replayed.reason}${llmNote}` };
  if (replayed.snapshotHash === child.snapshotHash) {
    const recordedPatch = await readPatch(runDir, child.id);
    if (recordedPatch !== replayed.patch) return { same: false, detail: "same tree, but patch.diff differs from the patch it yields" };
    return { same: true, detail: `same patch (${changeList(replayed.changes)})${llmNote}` };
  }
  const recorded = new Map(child.changedFiles.map((c) => [c.path, c]));
  const differing = replayed.changes.filter((c) => recorded.get(c.path)?.additions !== c.additions || recorded.get(c.path)?.deletions !== c.deletions).map((c) => c.path);
  const missing = child.changedFiles.filter((c) => !replayed.changes.some((r) => r.path === c.path)).map((c) => c.path);
  const files = [...new Set([...differing, ...missing])];
  const where = files.length === 0 ? " (same line counts, different lines)" : ` (differs in ${files.join(", ")})`;
  return { same: false, detail: `different patch: recorded ${changeList(child.changedFiles)}; replayed ${changeList(replayed.changes)}${where}${llmNote}` };
}
