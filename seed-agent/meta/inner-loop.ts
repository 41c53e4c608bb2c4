/**
 * The offline strategy's inner loop, when the harness lets the meta agent test its drafts
 * (ctx.evaluate): propose a move from the best tree so far, write it, evaluate it on the
 * visible instances the parent was scored on (same instances, same evaluation seed, so the
 * parent's own scores are the bar), keep it only when it beats the best score, a few times
 * over; then leave the best tree in the workspace. When no move beats the parent, the
 * parent's tree is left as it was and the summary says so (the harness records an empty
 * change). Only kept moves are written as moves in the summary: the lineage credits only them.
 */
import type { EvaluateRequest, ImproveContext, ImproveReport, ImproveRequest } from "@evolve/contract";
import type { KnobSearch, Texts } from "./knob-search.js";
import { formatMoves, type Move } from "./moves.js";
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

/** Tests up to `search.innerSteps` proposals (no more than the budget allows) and keeps the best. */
export async function innerLoop(request: ImproveRequest, ctx: ImproveContext, knobs: KnobSearch, note: string): Promise<ImproveReport> {
  const started = Date.now();
  const steps = Math.min(search.innerSteps, request.budget.evaluations);
  const ids = [...new Set(request.feedback.instances.map((i) => i.id))];
  const target: EvaluateRequest = ids.length > 0 ? { instances: ids } : { instances: "stage1" };
  const on = ids.length > 0 ? `${ids.length} visible instances` : "the stage-1 subset";
  const parentScore = ids.length > 0 ? mean(ids.map((id) => request.feedback.instances.find((i) => i.id === id)?.score ?? 0)) : null;

  let best: { score: number | null; texts: Texts; moves: Move[] } = { score: parentScore, texts: knobs.originals, moves: [] };
  const written = new Map(knobs.originals);
  const sync = async (texts: Texts): Promise<void> => {
    for (const [path, text] of texts) {
      if (written.get(path) === text) continue;
      await ctx.files.write(path, text);
      written.set(path, text);
    }
  };
  const tried: string[] = [];
  let stop = "";
  for (let step = 0; step < steps; step++) {
    if (Date.now() > request.budget.deadline - DEADLINE_MARGIN_MS) {
      stop = "deadline near";
      break;
    }
    knobs.restore(best.texts);
    const moves = knobs.propose();
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
    tried.push(result.outcome === "evaluated" ? score(result.score) : `${result.stage} ${result.code}`);
    if (result.outcome === "evaluated" && (best.score === null || result.score > best.score + MIN_GAIN)) {
      best = { score: result.score, texts, moves: merge(best.moves, moves) };
    }
  }
  knobs.restore(best.texts);
  await sync(best.texts);
  ctx.log(`meta offline inner loop: ${tried.length} drafts evaluated on ${on}, kept ${best.moves.length} moves${stop ? ` (${stop})` : ""}, ${Date.now() - started} ms`);
  const trial = `tried ${tried.length} on ${on}: ${tried.join(", ") || "none"}${stop ? `; ${stop}` : ""}`;
  const changedFiles = [...best.texts].filter(([path, text]) => knobs.originals.get(path) !== text).map(([path]) => path);
  if (best.moves.length === 0 || changedFiles.length === 0) {
    return { summary: `offline: no move helped (parent ${score(parentScore)}; ${trial})${note}`, changedFiles: [] };
  }
  return { summary: `offline: ${formatMoves(best.moves)}; inner loop kept it: ${score(parentScore)} -> ${score(best.score)} (${trial})${note}`, changedFiles };
}
