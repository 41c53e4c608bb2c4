/** `evolve reject <run> <gen> --reason TEXT`: a pending child is never a parent. */
import { EvolveError } from "../../errors/index.js";
import type { CliCommand } from "../command.js";
import { stringOption } from "../inspect/load-run.js";
import { OUT_HELP } from "../inspect/run-arg.js";
import { decide } from "../supervise/decide.js";
import { SUPERVISION_USAGE_ERRORS } from "../supervise/usage-errors.js";

export const reject: CliCommand = {
  name: "reject",
  summary: "reject a child that waits for approval (run policy): it is never a parent",
  help: `usage: evolve reject <run> <gen> --reason TEXT [--out DIR]
  <gen>          the pending child (g0007 or 7); evolve pending <run> lists them
  --reason TEXT  why (required), kept with the decision and in events.jsonl
${OUT_HELP}
  Recorded with your OS user and the time; works while the run is live and after it.
  A decision is final. An unknown run or generation, or one that does not wait for
  approval, is exit 2.`,
  options: { reason: { type: "string" }, out: { type: "string" } },
  positionals: { min: 2, max: 2, names: "<run> <gen>" },
  usageErrors: SUPERVISION_USAGE_ERRORS,
  async run({ values, positionals, out }) {
    const reason = stringOption(values["reason"])?.trim() ?? "";
    if (reason === "") throw new EvolveError("invalid_options", "a rejection needs --reason TEXT (it is kept with the decision)");
    const { decision, runDir } = await decide({
      run: positionals[0] ?? "",
      generation: positionals[1] ?? "",
      out: stringOption(values["out"]),
      verdict: "rejected",
      note: reason,
    });
    out(`rejected ${decision.generation} of ${runDir} (by ${decision.by} at ${decision.at})`);
    return 0;
  },
};
