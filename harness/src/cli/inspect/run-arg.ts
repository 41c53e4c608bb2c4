/** Turning `<run>` and `<gen>` arguments into a run folder and a generation id. */
import { stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { EvolveError } from "../../errors/index.js";
import type { GenerationRecord } from "../../archive/index.js";
import { formatGenerationId, RUN_FILE, RunId } from "../../archive/index.js";
import { DEFAULT_ARCHIVE_ROOT } from "../../evolution/run-options.js";
import { bestGeneration, byId } from "../../report/index.js";

/** Where runs live unless --out says otherwise: the same root `evolve run` writes to. */
export const DEFAULT_OUT = DEFAULT_ARCHIVE_ROOT;

export const OUT_HELP = "  --out DIR   archive root holding the runs (default: generations/ in the current folder)";
export const JSON_HELP = "  --json      machine-readable output on stdout";

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * `<run>` is a run id under the archive root, or a path to a run folder (anything with a
 * separator, or an existing folder holding run.json).
 */
export async function resolveRunDir(arg: string, out: string | undefined): Promise<string> {
  const root = out ?? DEFAULT_OUT;
  const looksLikePath = arg.includes("/") || isAbsolute(arg) || arg === "." || arg === "..";
  if (looksLikePath) {
    const dir = resolve(arg);
    if (await isDirectory(dir)) return dir;
    throw new EvolveError("unknown_run", `no run folder at ${arg}`);
  }
  if (RunId.safeParse(arg).success) {
    const dir = resolve(join(root, arg));
    if (await isDirectory(dir)) return dir;
  }
  if (await isFile(join(resolve(arg), RUN_FILE))) return resolve(arg);
  throw new EvolveError("unknown_run", `no run '${arg}' under ${root}/`, { hint: "evolve ls lists the runs (use --out DIR for another archive root)" });
}

/**
 * `<gen>`: an id ("g0007"), a number ("7"), "best" (highest visible score) or "latest".
 * Names that resolve against the records need them; plain ids do not.
 */
export function resolveGenerationArg(arg: string, generations: readonly GenerationRecord[] | null): string {
  if (/^g\d{4,}$/.test(arg)) return arg;
  if (/^\d{1,9}$/.test(arg)) return formatGenerationId(Number(arg));
  if ((arg === "best" || arg === "latest") && generations !== null) {
    const picked = arg === "best" ? bestGeneration(generations) : (byId(generations).at(-1) ?? null);
    if (picked === null) throw new EvolveError("unknown_generation", arg === "best" ? "the run has no valid scored generation" : "the run has no generation");
    return picked.id;
  }
  throw new EvolveError("unknown_generation", `'${arg}' is not a generation (write g0007, 7, best or latest)`);
}
