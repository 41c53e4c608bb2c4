/** `evolve ls`: the runs under an archive root, newest first. */
import { bestGeneration } from "../../selection/index.js";
import { listRuns, observedStatus, readEvents, readRunSummary } from "../../archive/index.js";
import { formatScore } from "../../report/index.js";
import type { CliCommand } from "../command.js";
import { DEFAULT_OUT, JSON_HELP, OUT_HELP } from "../inspect/run-arg.js";
import { printJson, stringOption } from "../inspect/load-run.js";
import { formatTable } from "../inspect/table.js";
import { approvalState } from "../../supervision/index.js";

export const ls: CliCommand = {
  name: "ls",
  summary: "list runs: task, model, generations, pending approvals, best score, status",
  help: `usage: evolve ls [--out DIR] [--json]
PENDING counts children waiting for approval under the run's policy (— when it asked for none).
STATUS is running, finished, interrupted, or crashed: marked running but its process (on
this host) is gone; \`evolve resume <run>\` continues it.
${OUT_HELP}
${JSON_HELP}`,
  options: { out: { type: "string" }, json: { type: "boolean" } },
  positionals: { min: 0, max: 0, names: "" },
  async run({ values, out, err }) {
    const root = stringOption(values["out"]) ?? DEFAULT_OUT;
    const { runs, problems } = await listRuns(root);
    for (const p of problems) err(`warning: ${p.path}: ${p.reason}`);
    const rows = await Promise.all(
      runs.map(async (r) => {
        const contents = await readRunSummary(r.dir);
        if (contents.problems.length > 0) err(`warning: ${r.id}: ${contents.problems.length} unreadable record(s) (evolve tree ${r.id} names them)`);
        const best = bestGeneration(contents.generations);
        return {
          id: r.id,
          dir: r.dir,
          task: r.run.config.task.name,
          model: r.run.config.model,
          generations: r.generationCount,
          invalid: contents.generations.filter((g) => g.status.kind === "invalid").length,
          // Null for a run whose policy asked for no approval (or that has none).
          pending: contents.generations.some((g) => g.approval !== undefined) ? contents.generations.filter((g) => approvalState(g) === "pending").length : null,
          best: best === null ? null : { id: best.id, visible: best.scores.visible, heldout: best.scores.heldout },
          // "running" in run.json whose process is gone reads "crashed" (`evolve resume` continues it).
          status: r.run.status === "running" ? observedStatus(r.run, (await readEvents(r.dir)).events) : r.run.status,
          createdAt: r.run.createdAt,
          from: r.run.from === undefined ? null : `${r.run.from.run}/${r.run.from.generation}`,
        };
      }),
    );
    if (values["json"] === true) {
      printJson(out, { root, runs: rows, problems });
      return 0;
    }
    if (rows.length === 0) {
      out(`no runs under ${root}/`);
      return 0;
    }
    const table = [["RUN", "TASK", "MODEL", "GENS", "INVALID", "PENDING", "BEST", "VISIBLE", "HELD-OUT", "STATUS", "CREATED"]];
    for (const r of rows) {
      table.push([
        r.id,
        r.task,
        r.model ?? "offline",
        String(r.generations),
        String(r.invalid),
        r.pending === null ? "—" : String(r.pending),
        r.best?.id ?? "—",
        formatScore(r.best?.visible),
        formatScore(r.best?.heldout),
        r.status + (r.from === null ? "" : ` (from ${r.from})`),
        r.createdAt.slice(0, 19).replace("T", " "),
      ]);
    }
    for (const line of formatTable(table)) out(line);
    return 0;
  },
};
