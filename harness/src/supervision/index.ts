/**
 * Supervised autonomy: the run policy (protected paths, approval rules), glob matching, and
 * where a child stands with its approval. A light leaf (zod, and node:fs to read the policy
 * file): the policy gate, the archive, selection and the views all read it, it reads none of them.
 */
export { firstMatchOf, GlobPattern, globMatcher, matchesGlob } from "./glob.js";
export { ApprovalRules, hasApprovalRules, parseRunPolicy, readRunPolicy, RunPolicy } from "./run-policy.js";
export { approvalDeadline, approvalReasons, changedLines } from "./approval-rules.js";
export type { FileChange } from "./approval-rules.js";
export { approvalCleared, approvalState, timedOut } from "./approval-state.js";
export type { ApprovalLike, ApprovalState, DecisionLike, Supervised } from "./approval-state.js";
