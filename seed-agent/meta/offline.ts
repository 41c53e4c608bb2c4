/**
 * The offline strategy (the default without an LLM): change a few knobs of the tree, found
 * in its syntax trees (knob-search.ts). Without ctx.evaluate it submits one proposal, untested; with
 * it, the inner loop (inner-loop.ts) tests several and keeps the best. Deterministic for
 * ctx.random (and, with the inner loop, for the scores the harness answers).
 */
import type { ImproveContext, ImproveReport, ImproveRequest } from "@evolve/contract";
import { innerLoop } from "./inner-loop.js";
import { openKnobSearch, type KnobSearch } from "./knob-search.js";
import { formatMoves } from "./moves.js";
import { search } from "./search-params.js";

/** Writes to the workspace the files of `search` that differ from the parent's; returns their paths. */
export async function writeChanged(ctx: ImproveContext, knobs: KnobSearch): Promise<string[]> {
  const changed: string[] = [];
  for (const [path, text] of knobs.texts()) {
    if (text === knobs.originals.get(path)) continue;
    await ctx.files.write(path, text);
    changed.push(path);
  }
  return changed;
}

/** Runs the offline strategy; `note` is appended to the summary (e.g. why the LLM was not used). */
export async function offlineImprove(request: ImproveRequest, ctx: ImproveContext, note = ""): Promise<ImproveReport> {
  const started = Date.now();
  const tested = request.budget.evaluations > 0 && search.innerSteps > 0;
  // Drafts are checked by the harness before it evaluates them, so the inner loop does not
  // type-check its edits here: a move that breaks the compile comes back as an invalid draft
  // (~80 ms in the harness's warm check worker, no container), where a cold check here costs
  // about a CPU-second in every child. On the seed's own tree the check never changed a proposal
  // (tests/seed-agent/knob-moves-compile.test.ts in the evolve repository).
  const knobs = await openKnobSearch(request, ctx, { typeCheck: search.typeCheck && !tested });
  if (tested) return innerLoop(request, ctx, knobs, note);
  const moves = knobs.propose();
  ctx.log(`meta offline: ${knobs.withKnobs.length} files with knobs, ${moves.length} moves, type-check ${knobs.checking ? "on" : "off"}, ${Date.now() - started} ms`);
  const changedFiles = await writeChanged(ctx, knobs);
  if (changedFiles.length === 0) {
    const paths = [...knobs.originals.keys()];
    const target = knobs.taskFile ?? paths[0] ?? "task/index.ts";
    const body = knobs.originals.get(target) ?? "";
    await ctx.files.write(target, `${body}${body.endsWith("\n") || body === "" ? "" : "\n"}// offline: no knob found in ${request.generation.id}\n`);
    return { summary: `offline: no changeable knob; marked ${target}${note}`, changedFiles: [target] };
  }
  return { summary: `offline: ${formatMoves(moves)}${note}`, changedFiles };
}
