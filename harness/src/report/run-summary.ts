/**
 * Facts about a run that the inspect commands and the HTML report share: the best
 * generation, its lineage, and the best / median score of the archive as it grew.
 */
import { bestGeneration, contenderScore, ranksAbove } from "../selection/index.js";
import type { GenerationRecord } from "../archive/index.js";
import { lineageOf, parseGenerationId } from "../archive/index.js";
import type { ProgressPoint } from "./report-view.js";
import { failureLabel } from "../results/index.js";
import { approvalState } from "../supervision/index.js";

/** Which score a summary ranks by. */
export type ScoreSplit = "visible" | "heldout";

/** Ids from the root to the best generation (empty without one, or when its lineage is broken). */
export function bestPath(generations: readonly GenerationRecord[]): string[] {
  const best = bestGeneration(generations);
  if (best === null) return [];
  try {
    return lineageOf(generations, best.id);
  } catch {
    return [];
  }
}

/** Records in id order (creation order). */
export function byId<G extends Pick<GenerationRecord, "id">>(generations: readonly G[]): G[] {
  return [...generations].sort((a, b) => (parseGenerationId(a.id) ?? 0) - (parseGenerationId(b.id) ?? 0));
}

/**
 * The archive's best and median over valid generations, after each generation in id
 * order. Held-out "best" is the held-out score of the visible-best generation (what a
 * user would ship), not the maximum held-out score, which would be selection on the test set.
 */
export function progressSeries(generations: readonly GenerationRecord[]): ProgressPoint[] {
  const visible = new SortedScores();
  const heldout = new SortedScores();
  let best: GenerationRecord | null = null;
  return byId(generations).map((g, index) => {
    if (g.status.kind === "valid") {
      if (g.scores.visible !== null) visible.add(g.scores.visible);
      if (g.scores.heldout !== null) heldout.add(g.scores.heldout);
    }
    // The best so far by bestGeneration's own rule (whole, cleared; ties to the earlier id).
    const score = contenderScore(g);
    if (score !== null && (best === null || ranksAbove({ score, id: g.id }, { score: contenderScore(best) ?? -Infinity, id: best.id }))) best = g;
    const current = best as GenerationRecord | null;
    return {
      id: g.id,
      index,
      own: { visible: g.scores.visible, heldout: g.scores.heldout },
      best: { visible: current?.scores.visible ?? null, heldout: current?.scores.heldout ?? null },
      median: { visible: visible.median(), heldout: heldout.median() },
    };
  });
}

/** Scores kept sorted by binary insertion, so a median per step stays cheap for 1,000s of steps. */
class SortedScores {
  readonly #values: number[] = [];

  add(value: number): void {
    let lo = 0;
    let hi = this.#values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#values[mid] ?? 0) < value) lo = mid + 1;
      else hi = mid;
    }
    this.#values.splice(lo, 0, value);
  }

  median(): number | null {
    const n = this.#values.length;
    if (n === 0) return null;
    const hi = this.#values[n >> 1] ?? 0;
    return n % 2 === 1 ? hi : ((this.#values[(n >> 1) - 1] ?? 0) + hi) / 2;
  }
}

/** "0.9332" or "—" for a missing score. */
export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? "—" : score.toFixed(4);
}

/** A signed difference "+0.0123", or "" when either side is missing. */
export function formatDelta(after: number | null, before: number | null): string {
  if (after === null || before === null) return "";
  const d = after - before;
  return `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(4)}`;
}

/** "1.2s", "340ms", "2m05s". */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return "—";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/** The status of a record in a few words: "valid", "invalid at compile: syntax_error", "duplicate of g0003" or "valid, pending approval". */
export function describeStatus(g: Pick<GenerationRecord, "status" | "approval">, now: number = Date.now()): string {
  switch (g.status.kind) {
    case "invalid":
      return `invalid at ${failureLabel(g.status)}`;
    case "duplicate":
      return `duplicate of ${g.status.of}`;
    case "valid": {
      const approval = describeApproval(g, now);
      return approval === null ? "valid" : `valid, ${approval}`;
    }
  }
}

/** Where a child stands with its approval, in a few words the views share; null when none was needed. */
export function approvalTag(g: GenerationRecord, now: number = Date.now()): string | null {
  switch (approvalState(g, now)) {
    case "not_required":
      return null;
    case "pending":
      return "PENDING approval";
    case "approved":
      return "approved";
    case "rejected":
      return g.approval?.decision?.timedOut !== false ? "REJECTED (timed out)" : "REJECTED";
  }
}

/** The approval in a sentence: who decided, when, and the note; null when none was needed. */
export function describeApproval(g: Pick<GenerationRecord, "approval">, now: number = Date.now()): string | null {
  const request = g.approval;
  if (request === undefined) return null;
  const decision = request.decision;
  if (decision === null) {
    const state = approvalState(g, now);
    if (state === "rejected") return `rejected: nobody answered before ${request.deadline ?? "its deadline"} (timed out)`;
    return `pending approval${request.deadline === null ? "" : ` until ${request.deadline}`}`;
  }
  const note = decision.note === null ? "" : `: ${decision.note}`;
  return `${decision.verdict} by ${decision.by} at ${decision.at}${note}`;
}
