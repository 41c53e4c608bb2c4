/** Where `<run>` is: the one lookup rule for every command that names a run (`show`, `resume`, `--from` ...). */
import { stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { EvolveError } from "../kernel/index.js";
import { RUN_FILE } from "./archive-paths.js";

async function holdsRun(dir: string): Promise<boolean> {
  return (await stat(join(dir, RUN_FILE)).catch(() => null))?.isFile() === true;
}

/**
 * The run folder `run` names: a path when it looks like one (a separator, absolute, "." or
 * ".."); otherwise a run id under `root`, or else a folder of that name here. Either way the
 * folder must hold run.json.
 */
export async function resolveRunDir(run: string, root: string): Promise<string> {
  const looksLikePath = run.includes("/") || run.includes("\\") || isAbsolute(run) || run === "." || run === "..";
  const candidates = looksLikePath ? [resolve(run)] : [resolve(root, run), resolve(run)];
  for (const dir of candidates) if (await holdsRun(dir)) return dir;
  throw new EvolveError("unknown_run", `no run ${JSON.stringify(run)} (looked for ${RUN_FILE} in ${candidates.join(" and ")})`, {
    hint: "evolve ls lists the runs; give a run id under the archive root (--out DIR) or a run folder's path",
  });
}
