/**
 * Where a child stands with its approval, from its record alone: pure functions over the
 * archive's shapes (structural, so this folder stays a leaf). A child with no `approval`
 * never needed one. One that needed one is pending until a decision is recorded, or until
 * its deadline passes: past the deadline it reads as rejected even before any process has
 * written the timeout down, so every view and command agrees on the same clock.
 */

export type ApprovalState = "not_required" | "pending" | "approved" | "rejected";

/** The decision on a request, as far as the state needs it. */
export interface DecisionLike {
  readonly verdict: "approved" | "rejected";
}

/** A record's approval request (GenerationApproval in the archive). */
export interface ApprovalLike {
  /** ISO time after which an unanswered request is rejected; null: never. */
  readonly deadline: string | null;
  readonly decision: DecisionLike | null;
}

/** Anything with an optional approval request: a generation record. */
export interface Supervised {
  readonly approval?: ApprovalLike | undefined;
}

/** The approval state at `now` (epoch ms). */
export function approvalState(g: Supervised, now: number = Date.now()): ApprovalState {
  const request = g.approval;
  if (request === undefined) return "not_required";
  if (request.decision !== null) return request.decision.verdict;
  return timedOut(request, now) ? "rejected" : "pending";
}

/** An unanswered request whose deadline has passed. */
export function timedOut(request: ApprovalLike, now: number = Date.now()): boolean {
  return request.decision === null && request.deadline !== null && Date.parse(request.deadline) <= now;
}

/**
 * Whether approval lets the record be used (a parent, "the best", a branch point): it was
 * not needed, or a person gave it. Pending and rejected children are held back whatever the
 * clock says, so selection does not depend on it.
 */
export function approvalCleared(g: Supervised): boolean {
  return g.approval === undefined || g.approval.decision?.verdict === "approved";
}
