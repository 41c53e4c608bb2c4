/** `evolve clean`: remove containers and volumes that evolve sessions left behind. */
import type { CliCommand } from "../command.js";

export const clean: CliCommand = {
  name: "clean",
  summary: "remove containers and volumes left by dead evolve sessions (--all: every one)",
  help: `usage: evolve clean [--all]
  --all       also remove those of sessions that still run (stops them)`,
  options: { all: { type: "boolean" } },
  positionals: { min: 0, max: 0, names: "" },
  async run({ values, out }) {
    const { connectEngine } = await import("../../../../sandbox/src/index.js");
    const engine = await connectEngine();
    const swept = await engine.sweep({ all: values["all"] === true });
    const left = await engine.countManaged();
    out(`removed ${swept.containers} containers and ${swept.volumes} volumes`);
    if (left.containers + left.volumes > 0) out(`${left.containers} containers and ${left.volumes} volumes of live sessions remain (use --all to remove them too)`);
    return 0;
  },
};
