/** Turning `<run>` and `<gen>` arguments into a run folder and a generation id. */
import { bestGeneration } from "../../selection/index.js";
import { EvolveError } from "../../kernel/index.js";
import type { GenerationSummary } from "../../archive/index.js";
import { formatGenerationId, GenerationId, resolveRunDir } from "../../archive/index.js";
import { DEFAULT_ARCHIVE_ROOT } from "../../evolution/run/run-settings.js";
import { byId } from "../../report/index.js";

/** Where runs live unless --out says otherwise: the same root `evolve run` writes to. */
export const DEFAULT_OUT = DEFAULT_ARCHIVE_ROOT;

export const OUT_HELP = "  --out DIR   archive root holding the runs (default: generations/ in the current folder)";
export const JSON_HELP = "  --json      machine-readable output on stdout";

/** `<run>`: a run id under the archive root (--out), or a run folder's path (the archive's one rule). */
export function resolveRunArg(arg: string, out: string | undefined): Promise<string> {
  return resolveRunDir(arg, out ?? DEFAULT_OUT);
}

/**
 * `<gen>`: an id ("g0007"), a number ("7"), "best" (highest visible score) or "latest".
 * Names that resolve against the records need them; plain ids do not.
 */
export function resolveGenerationArg(arg: string, generations: readonly GenerationSummary[] | null): string {
  if (GenerationId.safeParse(arg).success) return arg;
  if (/^\d{1,9}$/.test(arg)) return formatGenerationId(Number(arg));
  if ((arg === "best" || arg === "latest") && generations !== null) {
    const picked = arg === "best" ? bestGeneration(generations) : (byId(generations).at(-1) ?? null);
    if (picked === null) throw new EvolveError("unknown_generation", arg === "best" ? "the run has no valid scored generation" : "the run has no generation");
    return picked.id;
  }
  if (arg === "best" || arg === "latest") {
    // Only commands that decide on one child refuse them: "best" would name another child as the run goes on.
    throw new EvolveError("unknown_generation", `'${arg}' names a different child as the run goes on; name the one you mean (g0007 or 7)`);
  }
  throw new EvolveError("unknown_generation", `'${arg}' is not a generation (write ${generations === null ? "g0007 or 7" : "g0007, 7, best or latest"})`);
}
