/** What the event log tells about dead processes: crashed runs and the children they left. */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { abandonedChildren, deathsWhileChecking, observedStatus, type ArchiveEvent } from "../../harness/src/archive/index.js";
import { AT, runRecord } from "../support/records.js";

const started = (pid: number, host = hostname()): ArchiveEvent => ({ type: "started", at: AT, run: "run-test", pid, host });
const resumed = (pid: number): ArchiveEvent => ({ type: "resumed", at: AT, recorded: 1, pid, host: hostname() });
const selected = (generation: string): ArchiveEvent => ({ type: "selected", at: AT, generation, parent: "g0000", strategy: "greedy" });
const checking = (generation: string, snapshotHash: string): ArchiveEvent => ({ type: "checking", at: AT, generation, snapshotHash });
const recorded = (generation: string): ArchiveEvent => ({ type: "recorded", at: AT, generation, status: "valid" });

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("observed run status", () => {
  it("reads a running run whose process is gone as crashed, and a live one as running", () => {
    expect(observedStatus(runRecord(), [started(deadPid())])).toBe("crashed");
    expect(observedStatus(runRecord(), [started(deadPid()), resumed(process.pid)])).toBe("running");
  });

  it("keeps the recorded status where it cannot tell (another host, no pid) or the run has ended", () => {
    expect(observedStatus(runRecord(), [started(deadPid(), `not-${hostname()}`)])).toBe("running");
    expect(observedStatus(runRecord(), [{ type: "started", at: AT, run: "run-test" }])).toBe("running");
    expect(observedStatus(runRecord({ status: "finished" }), [started(deadPid())])).toBe("finished");
  });
});

describe("children left by dead processes", () => {
  it("names each dead process's unrecorded children and their phase; a clean stop leaves none", () => {
    const events: ArchiveEvent[] = [
      started(1),
      selected("g0001"),
      selected("g0002"),
      checking("g0002", "hash-b"),
      recorded("g0001"),
      // died here; the next process stopped cleanly on Ctrl-C with g0003 in its checks
      resumed(2),
      selected("g0003"),
      checking("g0003", "hash-b"),
      { type: "interrupted", at: AT, reason: "interrupted (SIGINT)" },
      resumed(3),
      selected("g0003"),
      checking("g0003", "hash-b"),
    ];
    const abandoned = abandonedChildren(events);
    expect(abandoned).toEqual([[{ generation: "g0002", phase: "checks", snapshotHash: "hash-b" }], [{ generation: "g0003", phase: "checks", snapshotHash: "hash-b" }]]);
    expect(deathsWhileChecking(abandoned)).toEqual(new Map([["hash-b", 2]]));
  });
});
