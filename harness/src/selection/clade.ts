/**
 * Clade outcomes for `cmp`, after the Huxley-Gödel Machine (Wang et al., "Huxley-Gödel
 * Machine: Human-Level Coding Agent Development by an Approximation of the Optimal
 * Self-Improving Machine", ICLR 2026, arXiv:2510.21614; in its code, tree.py's
 * `get_decendant_evals` pools a node's own evaluations with every descendant's). A node's
 * clade is itself and every descendant; its outcomes pool the clade's visible instance
 * scores, a score s counting as s successes and 1 − s failures. A child that gave nothing to
 * evaluate (invalid at any stage, an empty change included, or a duplicate) counts as one
 * whole evaluation of zeros, as HGM scores a failed child; a child still in flight counts the
 * same until it lands (a "virtual loss", so parallel workers spread out).
 */
import type { EvaluationResult } from "../results/index.js";

/** Successes and failures pooled over a clade. */
export interface CladeOutcomes {
  readonly successes: number;
  readonly failures: number;
}

/** The fields of a record the clade counts read. */
export interface CladeMember {
  readonly id: string;
  readonly parent: string | null;
  readonly status: { readonly kind: "valid" | "invalid" | "duplicate" };
  readonly evaluation?: Pick<EvaluationResult, "stages"> | null;
}

/** A record's visible instance scores (stage 1 and the rest of the visible split). */
function visibleScores(member: CladeMember): number[] {
  const stages = member.evaluation?.stages ?? [];
  return stages.filter((s) => s.stage !== "heldout").flatMap((s) => s.instances.filter((i) => i.split === "visible").map((i) => i.score));
}

/** Pooled outcomes of every member's clade; `inFlightParents` has one entry per child being made. */
export function cladeOutcomes(members: readonly CladeMember[], inFlightParents: readonly string[] = []): Map<string, CladeOutcomes> {
  const parentOf = new Map(members.map((m) => [m.id, m.parent]));
  // One whole evaluation: the most visible instances any record was scored on (at least 1).
  const whole = Math.max(1, ...members.map((m) => visibleScores(m).length));
  const totals = new Map<string, { successes: number; failures: number }>();
  const addUp = (from: string | null, successes: number, failures: number): void => {
    // Walks to the root; `seen` guards against a corrupt archive with a parent cycle.
    const seen = new Set<string>();
    for (let id = from; id !== null && id !== undefined && !seen.has(id); id = parentOf.get(id) ?? null) {
      seen.add(id);
      const t = totals.get(id) ?? { successes: 0, failures: 0 };
      totals.set(id, { successes: t.successes + successes, failures: t.failures + failures });
    }
  };
  for (const m of members) {
    if (m.status.kind !== "valid") {
      addUp(m.id, 0, whole);
      continue;
    }
    const scores = visibleScores(m).map((s) => (Number.isFinite(s) ? Math.min(1, Math.max(0, s)) : 0));
    const sum = scores.reduce((a, b) => a + b, 0);
    addUp(m.id, sum, scores.length - sum);
  }
  for (const parent of inFlightParents) addUp(parent, 0, whole);
  return totals;
}
