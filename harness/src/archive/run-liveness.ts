/**
 * What the event log says about the processes that worked on a run: whether the last one
 * still lives, and which children each dead one was in the middle of. A process's stretch
 * of the log runs from its `started`/`resumed` event to the next; one that ends with no
 * `finished` or `interrupted` event is a process that died (SIGKILL, a crash, power).
 */
import { hostname } from "node:os";
import type { ArchiveEvent } from "./archive-event.js";
import type { RunRecord } from "./run-record.js";

/** run.json's status, with "crashed" for a run marked running whose process is gone. */
export type ObservedRunStatus = RunRecord["status"] | "crashed";

/** A child a dead process left behind, and the phase it was in. */
export interface AbandonedChild {
  generation: string;
  phase: "self-modify" | "checks" | "evaluate";
  /** Known once the tree came back (the checks' `checking` event). */
  snapshotHash: string | null;
}

function stretches(events: readonly ArchiveEvent[]): ArchiveEvent[][] {
  const out: ArchiveEvent[][] = [];
  for (const event of events) {
    if (event.type === "started" || event.type === "resumed" || out.length === 0) out.push([]);
    out[out.length - 1]!.push(event);
  }
  return out;
}

/**
 * Children each process that ended without `finished` or `interrupted` left unrecorded, one
 * list per such process. Call it when no process works on the run (resume does, after the
 * sweep): the last stretch then belongs to a dead process too.
 */
export function abandonedChildren(events: readonly ArchiveEvent[]): AbandonedChild[][] {
  return stretches(events)
    .filter((stretch) => !stretch.some((e) => e.type === "finished" || e.type === "interrupted"))
    .map((stretch) => {
      const children = new Map<string, AbandonedChild>();
      for (const e of stretch) {
        if (e.type === "selected") children.set(e.generation, { generation: e.generation, phase: "self-modify", snapshotHash: null });
        if (e.type === "checking") children.set(e.generation, { generation: e.generation, phase: "checks", snapshotHash: e.snapshotHash });
        if (e.type === "validated") {
          const child = children.get(e.generation);
          if (child !== undefined) children.set(e.generation, { ...child, phase: "evaluate" });
        }
        if (e.type === "recorded") children.delete(e.generation);
      }
      return [...children.values()];
    });
}

/** How many process deaths happened while each snapshot was being checked. */
export function deathsWhileChecking(abandoned: readonly AbandonedChild[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const stretch of abandoned) {
    for (const child of stretch) {
      if (child.phase === "checks" && child.snapshotHash !== null) counts.set(child.snapshotHash, (counts.get(child.snapshotHash) ?? 0) + 1);
    }
  }
  return counts;
}

/** Whether a process on this host with this pid exists (EPERM: it exists, not ours). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The run's status as a reader sees it now: "running" in run.json whose last process was on
 * this host and is gone is "crashed". On another host (or before pids were recorded) the
 * recorded status stands: nothing here can tell.
 */
export function observedStatus(run: RunRecord, events: readonly ArchiveEvent[]): ObservedRunStatus {
  if (run.status !== "running") return run.status;
  const owner = [...events].reverse().find((e) => e.type === "started" || e.type === "resumed");
  if (owner === undefined || owner.pid === undefined || owner.host === undefined) return run.status;
  if (owner.host !== hostname()) return run.status;
  return processAlive(owner.pid) ? "running" : "crashed";
}
