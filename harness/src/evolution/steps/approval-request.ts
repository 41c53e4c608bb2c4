/**
 * The gate of a supervised run: a valid child whose changes trip the policy's approval
 * rules is recorded like any other, with an approval request attached, and is held back
 * from selection until a person decides (approval-watch.ts). No worker waits for it.
 */
import type { ArchiveWriter, ChangedFile, GenerationApproval, GenerationRecord } from "../../archive/index.js";
import type { Failure } from "../../results/index.js";
import { approvalDeadline, approvalReasons, type RunPolicy } from "../../supervision/index.js";

/** The approval request for a child with these changes, or undefined when it needs none (invalid children never do). */
export function approvalRequestFor(policy: RunPolicy | null, failure: Failure | null, changes: readonly ChangedFile[], now: Date = new Date()): GenerationApproval | undefined {
  if (policy === null || failure !== null) return undefined;
  const reasons = approvalReasons(policy.approval, changes);
  return reasons.length === 0 ? undefined : { reasons, deadline: approvalDeadline(policy.approval, now), decision: null };
}

/** Logs the request of a recorded child (after its `recorded` event), if it has one. */
export async function logApprovalRequest(writer: ArchiveWriter, record: GenerationRecord): Promise<void> {
  if (record.approval === undefined) return;
  await writer.appendEvent({
    type: "approval_requested",
    at: new Date().toISOString(),
    generation: record.id,
    reasons: record.approval.reasons,
    deadline: record.approval.deadline,
  });
}
