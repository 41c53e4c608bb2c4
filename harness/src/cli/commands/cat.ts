/** `evolve cat <run> <gen> <path>`: one file of a generation's snapshot. */
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { generationPaths, isSafeRelativePath, readGeneration, readRun } from "../../archive/index.js";
import { EvolveError } from "../../kernel/index.js";
import type { CliCommand } from "../command.js";
import { printJson, stringOption } from "../inspect/load-run.js";
import { JSON_HELP, OUT_HELP, resolveGenerationArg, resolveRunArg } from "../inspect/run-arg.js";

const NAMED = /^(best|latest)$/;

export const cat: CliCommand = {
  name: "cat",
  summary: "print a file of a generation's agent tree (its snapshot)",
  help: `usage: evolve cat <run> <gen> <path> [--out DIR] [--json]
  <gen>       g0007, 7, best or latest
  <path>      relative to the agent tree, e.g. task/index.ts
${OUT_HELP}
${JSON_HELP}`,
  options: { out: { type: "string" }, json: { type: "boolean" } },
  positionals: { min: 3, max: 3, names: "<run> <gen> <path>" },
  async run({ values, positionals, out }) {
    const dir = await resolveRunArg(positionals[0] ?? "", stringOption(values["out"]));
    const arg = positionals[1] ?? "";
    // best and latest read the run's records, as show and diff do; an id or a number needs none.
    const id = resolveGenerationArg(arg, NAMED.test(arg) ? (await readRun(dir)).generations : null);
    const path = (positionals[2] ?? "").replace(/^\.\//, "");
    if (!isSafeRelativePath(path)) throw new EvolveError("invalid_options", `'${path}' is not a path inside the agent tree`);
    const record = await readGeneration(dir, id);
    if (record.snapshotHash === null) throw new EvolveError("unknown_generation", `${id} has no snapshot`);
    const file = join(generationPaths(dir, id).snapshot, ...path.split("/"));
    // Every component is checked: a link inside the snapshot must not lead out of it.
    let walked = generationPaths(dir, id).snapshot;
    for (const part of path.split("/")) {
      walked = join(walked, part);
      const info = await lstat(walked).catch(() => null);
      if (info === null) throw new EvolveError("invalid_options", `${id} has no file ${path}`, { hint: `evolve show ${positionals[0] ?? ""} ${id} lists what changed` });
      if (info.isSymbolicLink()) throw new EvolveError("archive_corrupt", `${walked} is a link; snapshots hold regular files only`);
    }
    if (!(await lstat(file)).isFile()) throw new EvolveError("invalid_options", `${path} is a folder in ${id}`);
    const text = await readFile(file, "utf8");
    if (values["json"] === true) {
      printJson(out, { generation: id, path, content: text });
      return 0;
    }
    // out() ends the text with a newline; a file ending in one must not get two.
    out(text.endsWith("\n") ? text.slice(0, -1) : text);
    return 0;
  },
};
