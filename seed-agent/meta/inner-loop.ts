/**
 * The offline strategy's inner loop, when the harness lets the meta agent test its drafts
 * (ctx.evaluate): propose a move from the best tree so far, write it, evaluate it on the
 * visible instances the parent was scored on (same instances, same evaluation seed, so the
 * parent's own scores are the bar), keep it only when it beats the best score, a few times
 * over; then leave the best tree in the workspace. When no move beats the parent and the
 * request lists attempts (so the loop knows what was tried from this parent), one more move
 * not yet tried from it is submitted untested (the parent's own tree would be an empty
 * change); the parent's tree is left only when no untried move is left. From a kept draft's
 * tree no move undoes a kept one, and none is drafted twice. Without attempts
 * (--attempts 0) it leaves the parent's tree, as before them. The
 * summary names the submitted moves first (the lineage credits them), then every draft after
 * DRAFTS_MARK with its result (credited to none; siblings read them as tried).
 */
import type { EvaluateRequest, ImproveContext, ImproveReport, ImproveRequest } from "@evolve/contract";
import type { KnobSearch, Texts } from "./knob-search.js";
import { DRAFTS_MARK, formatMoves, type Move } from "./moves.js";
import { moveKey } from "./tried.js";
import { search } from "./search-params.js";

/** A draft must beat the best score by more than this to be kept (scores are means in [0, 1]). */
const MIN_GAIN = 1e-9;
/** No draft is evaluated closer than this to the deadline: the workspace must be settled by then. */
const DEADLINE_MARGIN_MS = 15_000;

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Moves of `earlier` then `later`, one per knob (a knob moved twice keeps its first `from`; moved back, it is gone). */
function merge(earlier: readonly Move[], later: readonly Move[]): Move[] {
  const merged = earlier.map((m) => ({ ...m }));
  for (const move of later) {
    const known = merged.find((m) => m.file === move.file && m.name === move.name);
    if (known === undefined) merged.push({ ...move });
    else known.to = move.to;
  }
  return merged.filter((m) => m.from !== m.to);
}

function score(value: number | null): string {
  return value === null ? "n/a" : value.toFixed(4);
}

interface Draft {
  moves: Move[];
  /** Null when it was not evaluated (it failed a check). */
  score: number | null;
  /** Its result as the summary writes it: a score, or the failed check. */
  label: string;
}

/** The tree submitted, and how it was chosen. */
interface Submission {
  score: number | null;
  texts: Texts;
  moves: Move[];
  how: "kept" | "untested" | "none";
}

/**
 * The tree to submit: the best so far; else (no draft beat the parent, and the request lists
 * attempts) one more move not yet tried from this parent, untested: a draft already known not
 * to beat the parent would only add a copy of it to the archive, an untried move adds what the
 * harness's evaluation of it will tell; else the parent's tree.
 */
function fallback(best: Omit<Submission, "how">, knobs: KnobSearch, drafted: ReadonlySet<string>, resubmit: boolean): Submission {
  if (best.moves.length > 0) return { ...best, how: "kept" };
  if (!resubmit) return { ...best, how: "none" };
  knobs.restore(knobs.originals);
  const moves = knobs.propose(drafted);
  return moves.length === 0 ? { ...best, how: "none" } : { score: null, texts: knobs.texts(), moves, how: "untested" };
}

/** Tests up to `search.innerSteps` proposals (no more than the budget allows) and submits the best. */
export async function innerLoop(request: ImproveRequest, ctx: ImproveContext, knobs: KnobSearch, note: string): Promise<ImproveReport> {
  const started = Date.now();
  const steps = Math.min(search.innerSteps, request.budget.evaluations);
  const ids = [...new Set(request.feedback.instances.map((i) => i.id))];
  const target: EvaluateRequest = ids.length > 0 ? { instances: ids } : { instances: "stage1" };
  const on = ids.length > 0 ? `${ids.length} visible instances` : "the stage-1 subset";
  const parentScore = ids.length > 0 ? mean(ids.map((id) => request.feedback.instances.find((i) => i.id === id)?.score ?? 0)) : null;

  let best: Omit<Submission, "how"> = { score: parentScore, texts: knobs.originals, moves: [] };
  const written = new Map(knobs.originals);
  const sync = async (texts: Texts): Promise<void> => {
    for (const [path, text] of texts) {
      if (written.get(path) === text) continue;
      await ctx.files.write(path, text);
      written.set(path, text);
    }
  };
  const drafts: Draft[] = [];
  // Moves drafted from the parent's own tree: not drafted twice (after a kept draft, moves start from it).
  const drafted = new Set<string>();
  // From a kept draft's tree: the moves drafted from it, and those that would undo its moves
  // (back to the parent's value: at best the parent's score, or the parent's very tree).
  let draftedFromBest = new Set<string>();
  let stop = "";
  for (let step = 0; step < steps; step++) {
    if (Date.now() > request.budget.deadline - DEADLINE_MARGIN_MS) {
      stop = "deadline near";
      break;
    }
    knobs.restore(best.texts);
    const fromParent = best.moves.length === 0;
    const moves = knobs.propose(fromParent ? drafted : draftedFromBest);
    if (moves.length === 0) {
      stop = "no move left";
      break;
    }
    const texts = knobs.texts();
    await sync(texts);
    const result = await ctx.evaluate(target);
    if (result.outcome === "refused") {
      stop = `evaluate refused: ${result.reason}`;
      break;
    }
    for (const m of moves) (fromParent ? drafted : draftedFromBest).add(moveKey(m));
    const evaluatedScore = result.outcome === "evaluated" ? result.score : null;
    drafts.push({ moves, score: evaluatedScore, label: evaluatedScore !== null ? score(evaluatedScore) : result.outcome === "invalid" ? `${result.stage} ${result.code}` : "?" });
    if (evaluatedScore !== null && (best.score === null || evaluatedScore > best.score + MIN_GAIN)) {
      best = { score: evaluatedScore, texts, moves: merge(best.moves, moves) };
      draftedFromBest = new Set(best.moves.map((m) => moveKey({ ...m, to: m.from })));
    }
  }
  const chosen = fallback(best, knobs, drafted, request.attempts !== undefined);
  knobs.restore(chosen.texts);
  await sync(chosen.texts);
  ctx.log(`meta offline inner loop: ${drafts.length} drafts evaluated on ${on}, submitting ${chosen.how} (${chosen.moves.length} moves)${stop ? ` (${stop})` : ""}, ${Date.now() - started} ms`);
  const changedFiles = [...chosen.texts].filter(([path, text]) => knobs.originals.get(path) !== text).map(([path]) => path);
  const trial = `${drafts.length} drafts on ${on}${stop ? `; ${stop}` : ""}`;
  return { summary: summaryOf(chosen, parentScore, trial, drafts, request.attempts !== undefined) + note, changedFiles: chosen.how === "none" ? [] : changedFiles };
}

/** The summary line: the submitted moves first (the lineage credits them), then every draft after DRAFTS_MARK. */
function summaryOf(chosen: Submission, parentScore: number | null, trial: string, drafts: readonly Draft[], withAttempts: boolean): string {
  const listed = drafts.length === 0 ? "" : `${DRAFTS_MARK}${drafts.map((d) => `${formatMoves(d.moves)} = ${d.label}`).join("; ")}`;
  const moves = formatMoves(chosen.moves);
  switch (chosen.how) {
    case "kept":
      return `offline: ${moves}; inner loop kept it: ${score(parentScore)} -> ${score(chosen.score)} (${trial})${listed}`;
    case "untested":
      return `offline: ${moves}; untested, as no draft beat the parent (${score(parentScore)}; ${trial})${listed}`;
    case "none":
      return `offline: ${withAttempts ? "no untried move left" : "no move helped"} (parent ${score(parentScore)}; ${trial})${listed}`;
  }
}
