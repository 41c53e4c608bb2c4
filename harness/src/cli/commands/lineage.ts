/** `evolve lineage <run> <gen>`: the chain from the root, each step's score delta and what changed. */
import type { GenerationRecord } from "../../archive/index.js";
import { lineageOf } from "../../archive/index.js";
import { formatDelta, formatScore } from "../../report/index.js";
import type { CliCommand } from "../command.js";
import { loadRun, printJson, stringOption } from "../inspect/load-run.js";
import { JSON_HELP, OUT_HELP, resolveGenerationArg } from "../inspect/run-arg.js";
import { formatTable } from "../inspect/table.js";
import { oneLine } from "../../text/index.js";
import { EvolveError } from "../../kernel/index.js";

/** Characters of a summary in the lineage table. */
const SUMMARY_COLUMN = 100;

export const lineage: CliCommand = {
  name: "lineage",
  summary: "the chain from the seed to a generation: score deltas and a line on what changed",
  help: `usage: evolve lineage <run> <gen> [--out DIR] [--json]
${OUT_HELP}
${JSON_HELP}`,
  options: { out: { type: "string" }, json: { type: "boolean" } },
  positionals: { min: 2, max: 2, names: "<run> <gen>" },
  async run({ values, positionals, out, err }) {
    const run = await loadRun(positionals[0] ?? "", stringOption(values["out"]), err);
    const id = resolveGenerationArg(positionals[1] ?? "", run.generations);
    const byId = new Map(run.generations.map((g) => [g.id, g]));
    if (!byId.has(id)) {
      const unreadable = run.warnings.some((w) => w.path.includes(id));
      throw new EvolveError(unreadable ? "archive_corrupt" : "unknown_generation", unreadable ? `the record of ${id} is unreadable (see the warning above)` : `no generation ${id} in ${run.dir}`);
    }
    const chain = lineageOf(run.generations, id).map((step) => byId.get(step) as GenerationRecord);
    const steps = chain.map((g, i) => {
      const prev = i === 0 ? null : (chain[i - 1] ?? null);
      return {
        id: g.id,
        status: g.status.kind === "invalid" ? `invalid:${g.status.stage}` : g.status.kind === "duplicate" ? `duplicate:${g.status.of}` : "valid",
        visible: g.scores.visible,
        heldout: g.scores.heldout,
        deltaVisible: prev === null || g.scores.visible === null || prev.scores.visible === null ? null : g.scores.visible - prev.scores.visible,
        deltaHeldout: prev === null || g.scores.heldout === null || prev.scores.heldout === null ? null : g.scores.heldout - prev.scores.heldout,
        change: whatChanged(g),
      };
    });
    if (values["json"] === true) {
      printJson(out, { generation: id, lineage: steps, warnings: run.warnings });
      return 0;
    }
    const rows = [["GEN", "VISIBLE", "Δ", "HELD-OUT", "Δ", "WHAT CHANGED"]];
    chain.forEach((g, i) => {
      const prev = i === 0 ? null : (chain[i - 1] ?? null);
      rows.push([
        g.id,
        formatScore(g.scores.visible),
        prev === null ? "" : formatDelta(g.scores.visible, prev.scores.visible),
        formatScore(g.scores.heldout),
        prev === null ? "" : formatDelta(g.scores.heldout, prev.scores.heldout),
        steps[i]?.change ?? "",
      ]);
    });
    for (const line of formatTable(rows)) out(line);
    return 0;
  },
};

/** The meta agent's own one-line summary, else the files it touched. */
function whatChanged(g: GenerationRecord): string {
  if (g.parent === null) return g.summary === null ? "seed" : oneLine(g.summary, SUMMARY_COLUMN);
  if (g.summary !== null && g.summary.trim() !== "") return oneLine(g.summary, SUMMARY_COLUMN);
  if (g.changedFiles.length === 0) return "no change";
  return oneLine(g.changedFiles.map((f) => `${f.path} +${f.additions} −${f.deletions}`).join(", "), SUMMARY_COLUMN);
}
