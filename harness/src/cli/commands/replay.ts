/** `evolve replay <run> <gen> [--all]`: does the lineage reproduce from the archive alone? */
import type { CliCommand } from "../command.js";
import { printJson, stringOption } from "../inspect/load-run.js";
import { JSON_HELP, OUT_HELP, resolveGenerationArg, resolveRunArg } from "../inspect/run-arg.js";
import { readRun } from "../../archive/index.js";
import { ENGINE_HELP, ENGINE_OPTIONS, engineConnector } from "../engine-wiring.js";
import { numberOption, usageProblem } from "../usage.js";

const TOLERANCE_RULE = "a number of at least 0";

export const replay: CliCommand = {
  name: "replay",
  summary: "replay a lineage: rebuild snapshots, re-run self-modification with recorded LLM answers, re-score",
  help: `usage: evolve replay <run> <gen> [--all] [--tolerance X] [--out DIR] [--json] [--engine SPEC ...]
  1. rebuilds every snapshot from the seed's patch chain and checks the recorded hashes
  2. re-runs each self-modification in a fresh container (recorded LLM answers, same seed): same patch?
  3. re-validates and re-evaluates the tip (--all: every step) and prints recorded vs replayed scores
  exit 0 when it reproduced, 1 when it diverged or the scores drifted
  --all          re-evaluate every generation on the path, not only the tip
  --tolerance X  largest score difference still called reproduced (default 1e-9)
${OUT_HELP}
${JSON_HELP}
${ENGINE_HELP}`,
  options: { out: { type: "string" }, json: { type: "boolean" }, all: { type: "boolean" }, tolerance: { type: "string" }, ...ENGINE_OPTIONS },
  positionals: { min: 2, max: 2, names: "<run> <gen>" },
  async run({ values, positionals, out }) {
    const tolerance = numberOption(values, "tolerance", TOLERANCE_RULE) ?? 1e-9;
    if (tolerance < 0) throw usageProblem("tolerance", TOLERANCE_RULE, values["tolerance"]);
    const { replayLineage, scoreLines, verdictLine } = await import("../../replay/index.js");
    const runDir = await resolveRunArg(positionals[0] ?? "", stringOption(values["out"]));
    const contents = await readRun(runDir);
    const generation = resolveGenerationArg(positionals[1] ?? "", contents.generations);
    const json = values["json"] === true;
    const abort = new AbortController();
    const onSigint = (): void => abort.abort();
    process.once("SIGINT", onSigint);
    const engine = await engineConnector(values)({ ...(contents.run === null ? {} : { runtime: contents.run.config.runtime }), onNote: out });
    try {
      const report = await replayLineage({
        runDir,
        generation,
        engine,
        signal: abort.signal,
        all: values["all"] === true,
        tolerance,
        ...(json ? {} : { onStep: out }),
      });
      if (json) printJson(out, report);
      else {
        for (const line of scoreLines(report)) out(line);
        out(verdictLine(report));
      }
      return report.verdict.kind === "reproduced" ? 0 : 1;
    } finally {
      process.off("SIGINT", onSigint);
      await engine.close();
    }
  },
};
