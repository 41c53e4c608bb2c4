/** `evolve pending <run>`: the children waiting for a person, with what they would bring. */
import type { GenerationRecord } from "../../archive/index.js";
import { formatDelta, formatScore } from "../../report/index.js";
import { approvalState } from "../../supervision/index.js";
import { oneLine } from "../../text/index.js";
import type { CliCommand } from "../command.js";
import { loadRun, printJson, stringOption } from "../inspect/load-run.js";
import { JSON_HELP, OUT_HELP } from "../inspect/run-arg.js";
import { SUPERVISION_USAGE_ERRORS } from "../supervise/usage-errors.js";

export const pending: CliCommand = {
  name: "pending",
  summary: "children waiting for approval (run policy): scores against the parent's, diff stat, why",
  help: `usage: evolve pending <run> [--out DIR] [--json]
  <run>       a run id under the archive root, or a path to a run folder
${OUT_HELP}
${JSON_HELP}
  Then: evolve diff <run> <gen> shows the change; evolve approve <run> <gen> [--note TEXT]
  or evolve reject <run> <gen> --reason TEXT decides. An unknown run is exit 2.`,
  options: { out: { type: "string" }, json: { type: "boolean" } },
  positionals: { min: 1, max: 1, names: "<run>" },
  usageErrors: SUPERVISION_USAGE_ERRORS,
  async run({ values, positionals, out, err }) {
    const run = await loadRun(positionals[0] ?? "", stringOption(values["out"]), err);
    const now = Date.now();
    const byId = new Map(run.generations.map((g) => [g.id, g]));
    const waiting = run.generations.filter((g) => approvalState(g, now) === "pending").map((g) => view(g, g.parent === null ? null : (byId.get(g.parent) ?? null)));
    const name = run.run?.id ?? positionals[0] ?? "";
    if (values["json"] === true) {
      printJson(out, { run: name, pending: waiting, warnings: run.warnings });
      return 0;
    }
    if (!run.generations.some((g) => g.approval !== undefined)) {
      out(`no child of ${name} asked for approval${run.run?.policy?.approval === undefined ? " (its policy has no approval rules)" : ""}`);
      return 0;
    }
    for (const p of waiting) {
      const stat = `${p.diff.files} file${p.diff.files === 1 ? "" : "s"} +${p.diff.additions} −${p.diff.deletions}`;
      out(`${p.id}  <- ${p.parent ?? "none"}  visible ${formatScore(p.scores.visible)} (${formatDelta(p.scores.visible, p.parentScores?.visible ?? null)})  held-out ${formatScore(p.scores.heldout)} (${formatDelta(p.scores.heldout, p.parentScores?.heldout ?? null)})  ${stat}  ${p.deadline === null ? "no deadline" : `until ${p.deadline}`}`);
      out(`  why      ${p.reasons.join("; ")}`);
      if (p.summary !== null) out(`  summary  ${oneLine(p.summary, 160)}`);
    }
    const timedOut = run.generations.filter((g) => g.approval?.decision === null && approvalState(g, now) === "rejected").map((g) => g.id);
    if (timedOut.length > 0) out(`timed out unanswered (rejected): ${timedOut.join(" ")}`);
    out(
      waiting.length === 0
        ? `no child of ${name} waits for approval`
        : `${waiting.length} waiting; evolve diff ${name} <gen> shows a change; evolve approve ${name} <gen> [--note TEXT] or evolve reject ${name} <gen> --reason TEXT`,
    );
    return 0;
  },
};

/** One pending child as `--json` gives it. */
function view(g: GenerationRecord, parent: GenerationRecord | null) {
  return {
    id: g.id,
    parent: g.parent,
    scores: g.scores,
    parentScores: parent?.scores ?? null,
    diff: {
      files: g.changedFiles.length,
      additions: g.changedFiles.reduce((s, f) => s + f.additions, 0),
      deletions: g.changedFiles.reduce((s, f) => s + f.deletions, 0),
    },
    reasons: g.approval?.reasons ?? [],
    deadline: g.approval?.deadline ?? null,
    summary: g.summary,
    createdAt: g.createdAt,
  };
}
