/** `evolve diff <run> <a> [<b>]`: unified diff of two generations' agent trees. */
import { generationPaths, readGeneration, readOwnTree } from "../../archive/index.js";
import type { Tree } from "../../archive/index.js";
import { diffTrees } from "../../archive/index.js";
import { EvolveError } from "../../kernel/index.js";
import type { CliCommand } from "../command.js";
import { loadRun, printJson, stringOption } from "../inspect/load-run.js";
import { JSON_HELP, OUT_HELP, resolveGenerationArg } from "../inspect/run-arg.js";

export const diff: CliCommand = {
  name: "diff",
  summary: "unified diff of two generations' agent trees (default: against the parent)",
  help: `usage: evolve diff <run> <a> [<b>] [--out DIR] [--json]
  one generation: the diff from its parent to it (from the empty tree for a root)
  two generations: the diff from <a> to <b>
${OUT_HELP}
${JSON_HELP}`,
  options: { out: { type: "string" }, json: { type: "boolean" } },
  positionals: { min: 2, max: 3, names: "<run> <a> [<b>]" },
  async run({ values, positionals, out, err }) {
    const run = await loadRun(positionals[0] ?? "", stringOption(values["out"]), err);
    const a = resolveGenerationArg(positionals[1] ?? "", run.generations);
    const second = positionals[2];
    let from: string | null;
    let to: string;
    if (second === undefined) {
      to = a;
      from = (await readGeneration(run.dir, a)).parent;
    } else {
      from = a;
      to = resolveGenerationArg(second, run.generations);
    }
    const [before, after] = await Promise.all([from === null ? new Map<string, string>() : snapshotOf(run.dir, from), snapshotOf(run.dir, to)]);
    const { patch, changes } = diffTrees(before, after);
    if (values["json"] === true) {
      printJson(out, { from, to, changes, patch });
      return 0;
    }
    if (patch !== "") out(patch.replace(/\n$/, ""));
    else err(`${from ?? "(empty tree)"} and ${to} have identical agent trees`);
    return 0;
  },
};

/** A generation's snapshot, or a clear error when it has none. */
async function snapshotOf(runDir: string, id: string): Promise<Tree> {
  const record = await readGeneration(runDir, id);
  if (record.snapshotHash === null) throw new EvolveError("unknown_generation", `${id} has no snapshot (${record.status.kind === "invalid" ? `it failed at ${record.status.stage}` : "none was recorded"})`);
  try {
    return await readOwnTree(generationPaths(runDir, id).snapshot);
  } catch (cause) {
    throw new EvolveError("archive_corrupt", `${generationPaths(runDir, id).snapshot}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
