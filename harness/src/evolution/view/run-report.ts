/** Writes the run's HTML report at the end of a run (harness/src/report); a failure is reported, never fatal. */
import { writeReport } from "../../report/index.js";

/** The report's path, or why there is none; never throws (a report is not worth a failed run). */
export async function writeRunReport(runDir: string): Promise<{ path: string } | { path: null; reason: string }> {
  try {
    return { path: await writeReport(runDir) };
  } catch (error) {
    return { path: null, reason: `writing it failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
