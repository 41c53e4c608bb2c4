/**
 * `evolve approve <run> <gen> [--note TEXT]` and `evolve reject <run> <gen> --reason TEXT`:
 * a person's decision on a child that waits for approval (cli/supervise/decide.ts).
 */
import { EvolveError } from "../../kernel/index.js";
import type { ApprovalDecision } from "../../archive/index.js";
import type { CliCommand } from "../command.js";
import { stringOption } from "../inspect/load-run.js";
import { OUT_HELP } from "../inspect/run-arg.js";
import { decide } from "../supervise/decide.js";
import { SUPERVISION_USAGE_ERRORS } from "../supervise/usage-errors.js";

interface DecisionSpec {
  name: string;
  verdict: ApprovalDecision["verdict"];
  summary: string;
  /** The option that carries the person's words, and whether it is required. */
  text: { option: "note" | "reason"; required: boolean; help: string };
  /** What the decision means, for --help. */
  effect: string;
}

function decisionCommand(spec: DecisionSpec): CliCommand {
  const { option, required } = spec.text;
  const usage = required ? `--${option} TEXT` : `[--${option} TEXT]`;
  return {
    name: spec.name,
    summary: spec.summary,
    help: `usage: evolve ${spec.name} <run> <gen> ${usage} [--out DIR]
  <gen>          the pending child (g0007 or 7); evolve pending <run> lists them
  --${option.padEnd(6)} TEXT  ${spec.text.help}, kept with the decision and in events.jsonl
${OUT_HELP}
  Recorded with your OS user and the time; works while the run is live and after it.
  ${spec.effect}
  A decision is final. An unknown run or generation, or one that does not wait for
  approval, is exit 2.`,
    options: { [option]: { type: "string" }, out: { type: "string" } },
    positionals: { min: 2, max: 2, names: "<run> <gen>" },
    usageErrors: SUPERVISION_USAGE_ERRORS,
    async run({ values, positionals, out }) {
      const text = stringOption(values[option])?.trim() ?? "";
      if (required && text === "") throw new EvolveError("invalid_options", `evolve ${spec.name} needs --${option} TEXT (it is kept with the decision)`);
      const { decision, runDir } = await decide({
        run: positionals[0] ?? "",
        generation: positionals[1] ?? "",
        out: stringOption(values["out"]),
        verdict: spec.verdict,
        note: text === "" ? null : text,
      });
      out(`${decision.verdict} ${decision.generation} of ${runDir} (by ${decision.by} at ${decision.at})`);
      return 0;
    },
  };
}

export const approve = decisionCommand({
  name: "approve",
  verdict: "approved",
  summary: "approve a child that waits for approval (run policy): it may then be a parent, live or after the run",
  text: { option: "note", required: false, help: "why" },
  effect: "A live run may select it from its next selection on; after the run, evolve resume\n  and evolve run --from <run>/<gen> can use it.",
});

export const reject = decisionCommand({
  name: "reject",
  verdict: "rejected",
  summary: "reject a child that waits for approval (run policy): it is never a parent",
  text: { option: "reason", required: true, help: "why (required)" },
  effect: "It is never a parent, the best or a branch point.",
});
