/**
 * What the meta agent is told was already tried near its parent (ImproveRequest.attempts):
 * the recorded children of the parent (siblings of the generation being made), of the
 * parent's own parent (the parent's siblings) and of the parent's siblings (cousins), closest
 * first and newest first within each, each with its summary and outcome. Everything comes from
 * generation records the harness wrote, read back through zod; the held-out split is in those
 * records but never read here: an outcome is the visible score and its change from the
 * attempt's parent, the race's stop, or the failure's stage and code.
 */
import { wholeVisibleScore } from "../../selection/index.js";
import type { Attempt, AttemptOutcome } from "@evolve/contract";
import { parseGenerationId, type GenerationRecord } from "../../archive/index.js";
import { assertNever } from "../../kernel/index.js";
import { oneLine } from "../../text/index.js";

/** Characters of one attempt's summary (records cap summaries at 500 already; older ones may not). */
export const ATTEMPT_SUMMARY_CHARS = 500;

type Relation = Attempt["relation"];
const RELATION_ORDER: readonly Relation[] = ["sibling", "parent_sibling", "cousin"];

/** How `g` relates to a generation about to be made from `parentId`, or null when it is not a close relative's child. */
function relationOf(g: GenerationRecord, parentId: string, byId: ReadonlyMap<string, GenerationRecord>): Relation | null {
  if (g.parent === null || g.id === parentId) return null;
  if (g.parent === parentId) return "sibling";
  const grandparent = byId.get(parentId)?.parent ?? null;
  if (grandparent === null) return null;
  if (g.parent === grandparent) return "parent_sibling";
  return byId.get(g.parent)?.parent === grandparent ? "cousin" : null;
}

/** The recorded attempts near `parentId`, closest relation first, newest first within one; at most `max`. */
export function attemptsNear(records: readonly GenerationRecord[], parentId: string, max: number): GenerationRecord[] {
  if (max <= 0) return [];
  const byId = new Map(records.map((r) => [r.id, r]));
  const near = records.flatMap((g) => {
    const relation = relationOf(g, parentId, byId);
    return relation === null ? [] : [{ g, rank: RELATION_ORDER.indexOf(relation), n: parseGenerationId(g.id) ?? -1 }];
  });
  near.sort((a, b) => a.rank - b.rank || b.n - a.n);
  return near.slice(0, max).map((e) => e.g);
}

/** What became of `g`, from its record (never its held-out score). */
function outcomeOf(g: GenerationRecord, byId: ReadonlyMap<string, GenerationRecord>): AttemptOutcome {
  switch (g.status.kind) {
    case "invalid":
      return { kind: "invalid", stage: g.status.stage, code: g.status.code };
    case "duplicate":
      return { kind: "duplicate", of: g.status.of };
    case "valid": {
      const score = wholeVisibleScore(g);
      const parent = g.parent === null ? undefined : byId.get(g.parent);
      const parentScore = parent === undefined ? null : wholeVisibleScore(parent);
      if (score !== null) return { kind: "valid", score, delta: parentScore === null ? null : score - parentScore };
      const visibleCount = (g.evaluation?.stages ?? []).filter((s) => s.stage !== "heldout").reduce((n, s) => n + s.instances.length, 0);
      const coverage = g.evaluation?.coverage;
      return { kind: "stopped", evaluated: coverage?.evaluated ?? visibleCount, of: coverage?.of ?? visibleCount, target: g.evaluation?.race?.target ?? null };
    }
    default:
      return assertNever(g.status, "generation status");
  }
}

/** The request's view of `attempts` (records near `parentId`), in the order given. */
export function attemptViews(attempts: readonly GenerationRecord[], parentId: string, records: readonly GenerationRecord[]): Attempt[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  return attempts.flatMap((g) => {
    const relation = relationOf(g, parentId, byId);
    if (relation === null || g.parent === null) return [];
    return [{ id: g.id, parent: g.parent, relation, summary: oneLine(g.summary ?? "", ATTEMPT_SUMMARY_CHARS), outcome: outcomeOf(g, byId) }];
  });
}
