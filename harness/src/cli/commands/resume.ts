/** `evolve resume <run>`: continue a stopped or killed run from its archive. */
import type { CliCommand } from "../command.js";
import { ENGINE_HELP, ENGINE_OPTIONS, engineConnector } from "../engine-wiring.js";
import { interruptible, stdoutSink } from "./run.js";

export const resume: CliCommand = {
  name: "resume",
  summary: "continue a stopped or killed run from its archive (none lost, none duplicated)",
  help: `usage: evolve resume <run> [--out DIR] [--engine SPEC ...]
  <run>       a run id under the archive root, or the run folder's path
  --out DIR   archive root (default generations/)
${ENGINE_HELP}
  Children that were in flight were not recorded: newly selected children take their
  places (ids go on from the last recorded one); the selection RNG continues from
  run.json; containers of dead sessions are removed first.`,
  options: { out: { type: "string" }, ...ENGINE_OPTIONS },
  positionals: { min: 1, max: 1, names: "<run>" },
  async run({ values, positionals }) {
    const out = typeof values["out"] === "string" ? values["out"] : undefined;
    const { resumeRun } = await import("../../evolution/index.js");
    const summary = await interruptible((signal) =>
      resumeRun(positionals[0] ?? "", { sink: stdoutSink(), signal, env: process.env, engine: engineConnector(values), ...(out === undefined ? {} : { root: out }) }),
    );
    return summary.end === "interrupted" ? 130 : 0;
  },
};
