/**
 * A process's CPU time, read where the system tells it (Linux's /proc). A job's limit counts
 * the worker's own CPU rather than the wall clock: on a loaded host (two cores, gVisor's ptrace
 * platform beside it) a trivial oracle call once waited more than 2 s of wall time for the CPU
 * and was discarded as a hang (the security suite's arena case, in CI).
 */
import { readFileSync } from "node:fs";

/** Linux reports /proc times in USER_HZ, 100 per second on every architecture Node runs on. */
const MS_PER_TICK = 10;

/** User plus system CPU time of the process (all its threads) in ms, or null where it cannot be read (no /proc: not Linux). */
export function cpuTimeMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which sits in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * MS_PER_TICK : null;
  } catch {
    return null;
  }
}
