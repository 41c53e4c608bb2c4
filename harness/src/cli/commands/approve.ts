/** `evolve approve <run> <gen> [--note TEXT]`: let a pending child be a parent. */
import type { CliCommand } from "../command.js";
import { stringOption } from "../inspect/load-run.js";
import { OUT_HELP } from "../inspect/run-arg.js";
import { decide } from "../supervise/decide.js";
import { SUPERVISION_USAGE_ERRORS } from "../supervise/usage-errors.js";

export const approve: CliCommand = {
  name: "approve",
  summary: "approve a child that waits for approval (run policy): it may then be a parent, live or after the run",
  help: `usage: evolve approve <run> <gen> [--note TEXT] [--out DIR]
  <gen>        the pending child (g0007 or 7); evolve pending <run> lists them
  --note TEXT  why, kept with the decision and in events.jsonl
${OUT_HELP}
  Recorded with your OS user and the time. A live run selects from it from its next
  selection on; after the run, evolve resume and evolve run --from <run>/<gen> can use it.
  A decision is final. An unknown run or generation, or one that does not wait for
  approval, is exit 2.`,
  options: { note: { type: "string" }, out: { type: "string" } },
  positionals: { min: 2, max: 2, names: "<run> <gen>" },
  usageErrors: SUPERVISION_USAGE_ERRORS,
  async run({ values, positionals, out }) {
    const { decision, runDir } = await decide({
      run: positionals[0] ?? "",
      generation: positionals[1] ?? "",
      out: stringOption(values["out"]),
      verdict: "approved",
      note: stringOption(values["note"]) ?? null,
    });
    out(`approved ${decision.generation} of ${runDir} (by ${decision.by} at ${decision.at})`);
    return 0;
  },
};
