/**
 * Which approval rules a child's changes trip: the reasons a person is asked, in words.
 * Pure: the changes are the archive's per-file diff stat of the child against its parent.
 */
import { firstMatchOf } from "./glob.js";
import type { ApprovalRules } from "./run-policy.js";

/** One changed file as the archive records it (ChangedFile). */
export interface FileChange {
  readonly path: string;
  readonly change: "added" | "modified" | "deleted";
  readonly additions: number;
  readonly deletions: number;
}

/** Paths named in one reason; the rest is counted. */
const NAMED = 3;

function listPaths(paths: readonly string[]): string {
  const named = paths.slice(0, NAMED).join(", ");
  return paths.length > NAMED ? `${named} and ${paths.length - NAMED} more` : named;
}

/** Changed lines of a diff stat: every added and every deleted line. */
export function changedLines(changes: readonly FileChange[]): number {
  return changes.reduce((sum, c) => sum + c.additions + c.deletions, 0);
}

/** The reasons `changes` need approval under `rules` (empty: they do not). */
export function approvalReasons(rules: ApprovalRules | undefined, changes: readonly FileChange[]): string[] {
  if (rules === undefined) return [];
  const reasons: string[] = [];
  const patterns = rules.paths ?? [];
  if (patterns.length > 0) {
    const matchOf = firstMatchOf(patterns);
    const byPattern = new Map<string, string[]>();
    for (const c of changes) {
      const pattern = matchOf(c.path);
      if (pattern !== null) byPattern.set(pattern, [...(byPattern.get(pattern) ?? []), c.path]);
    }
    for (const [pattern, paths] of byPattern) reasons.push(`changes ${listPaths(paths)} (approval path ${pattern})`);
  }
  if (rules.maxChangedLines !== undefined) {
    const lines = changedLines(changes);
    if (lines > rules.maxChangedLines) reasons.push(`${lines} changed lines (more than maxChangedLines ${rules.maxChangedLines})`);
  }
  if (rules.addOrDeleteFiles === true) {
    const added = changes.filter((c) => c.change === "added").map((c) => c.path);
    const deleted = changes.filter((c) => c.change === "deleted").map((c) => c.path);
    if (added.length > 0) reasons.push(`adds ${listPaths(added)}`);
    if (deleted.length > 0) reasons.push(`deletes ${listPaths(deleted)}`);
  }
  return reasons;
}

/** When a request recorded at `recordedAt` times out under `rules`, or null when it never does. */
export function approvalDeadline(rules: ApprovalRules | undefined, recordedAt: Date): string | null {
  const minutes = rules?.timeoutMinutes;
  return minutes === undefined ? null : new Date(recordedAt.getTime() + minutes * 60_000).toISOString();
}
