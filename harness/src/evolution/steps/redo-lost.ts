/**
 * A generation whose engine failed under it is done again, from the start, under the same id
 * and seed: it was never recorded, so nothing is lost and nothing is recorded twice. The
 * events say so (`redone`). A generation that keeps losing engines stops the run.
 */
import type { ArchiveWriter } from "../../archive/index.js";
import type { RunContext } from "../context/index.js";

/** Attempts of one generation before the run gives up on its engines. */
export const MAX_ATTEMPTS = 4;

/** Runs `attempt` for `generation`; when an engine was lost under it, again (the fleet places it elsewhere). */
export async function redoingLost<T>(ctx: RunContext, writer: ArchiveWriter, generation: string, attempt: () => Promise<T>, options: { event: boolean } = { event: true }): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const lost = ctx.engines.takeLost(generation);
      if (lost.length === 0 || ctx.signal.aborted || n >= MAX_ATTEMPTS) throw error;
      // An arena's test generations and test runs are redone the same way without the event, which names a child redone.
      if (options.event) await writer.appendEvent({ type: "redone", at: new Date().toISOString(), generation, attempt: n + 1, reason: lost.join("; ") });
    }
  }
}
