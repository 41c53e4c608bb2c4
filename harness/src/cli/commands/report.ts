/** `evolve report <run>`: (re)write the run's self-contained report.html. */
import { ensureWritableFolder } from "../../archive/index.js";
import { writeReport } from "../../report/index.js";
import type { CliCommand } from "../command.js";
import { printJson, stringOption } from "../inspect/load-run.js";
import { JSON_HELP, OUT_HELP, resolveRunArg } from "../inspect/run-arg.js";

export const report: CliCommand = {
  name: "report",
  summary: "write the run's self-contained HTML report (report.html in the run folder)",
  help: `usage: evolve report <run> [--out DIR] [--json]
  opens offline in any browser: no network, inline everything
${OUT_HELP}
${JSON_HELP}`,
  options: { out: { type: "string" }, json: { type: "boolean" } },
  positionals: { min: 1, max: 1, names: "<run>" },
  async run({ values, positionals, out }) {
    const dir = await resolveRunArg(positionals[0] ?? "", stringOption(values["out"]));
    await ensureWritableFolder(dir, "run");
    const started = Date.now();
    const path = await writeReport(dir);
    if (values["json"] === true) printJson(out, { path, durationMs: Date.now() - started });
    else out(path);
    return 0;
  },
};
