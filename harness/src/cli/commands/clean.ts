/** `evolve clean`: remove containers and volumes that evolve sessions left behind, on every engine. */
import { plural } from "../../text/index.js";
import type { CliCommand } from "../command.js";
import { ENGINE_HELP, ENGINE_OPTIONS, engineConnector } from "../engine-wiring.js";

export const clean: CliCommand = {
  name: "clean",
  summary: "remove containers and volumes left by dead evolve sessions (--all: every one)",
  help: `usage: evolve clean [--all] [--engine SPEC ...]
  --all       also remove those of sessions that still run (stops them)
${ENGINE_HELP}`,
  options: { all: { type: "boolean" }, ...ENGINE_OPTIONS },
  positionals: { min: 0, max: 0, names: "" },
  async run({ values, out }) {
    const engine = await engineConnector(values)({ onNote: out });
    try {
      const swept = await engine.sweep({ all: values["all"] === true });
      const left = await engine.countManaged();
      out(`removed ${plural(swept.containers, "container")} and ${plural(swept.volumes, "volume")}`);
      if (left.containers + left.volumes > 0) out(`${plural(left.containers, "container")} and ${plural(left.volumes, "volume")} of live sessions remain (use --all to remove them too)`);
      const unreached = engine.engines().filter((e) => e.state === "down");
      for (const e of unreached) out(`engine ${e.name} (${e.endpoint}) did not answer: nothing removed there (${e.reason ?? "unreachable"})`);
      return unreached.length > 0 ? 1 : 0;
    } finally {
      await engine.close();
    }
  },
};
