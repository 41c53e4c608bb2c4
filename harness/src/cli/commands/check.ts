/** `evolve check`: the checks `evolve run` makes before it starts, without starting anything. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EvolveError } from "../../kernel/index.js";
import type { CliCommand, CommandInput } from "../command.js";
import { ENGINE_HELP, ENGINE_OPTIONS, engineConnector } from "../engine-wiring.js";
import { resolveTaskArg } from "../task-arg.js";

function stringOption(values: CommandInput["values"], name: string): string | undefined {
  const raw = values[name];
  return typeof raw === "string" ? raw : undefined;
}

export const check: CliCommand = {
  name: "check",
  summary: "check a task folder and/or an agent tree without starting a run; lists every problem",
  help: `usage: evolve check [--task T|DIR] [--agent DIR]      (at least one)
  --task T|DIR   task.json, visible.json and heldout.json against the grader's instanceSchema,
                 duplicate ids, and a smoke test: the grader scores a trivial stand-in candidate's
                 answers (null, {}, [], "", -1, a crash) without throwing or hanging
  --agent DIR    the agent contract: policy, compile, signature (on this machine, never run),
                 and import (the compiled agent loads in a container; needs the Docker engine)
${ENGINE_HELP}
  Exit code 0 when everything passed, 1 when something did not.`,
  options: { task: { type: "string" }, agent: { type: "string" }, ...ENGINE_OPTIONS },
  positionals: { min: 0, max: 0, names: "" },
  async run({ values, out }) {
    const taskArg = stringOption(values, "task");
    const agentArg = stringOption(values, "agent");
    if (taskArg === undefined && agentArg === undefined)
      throw new EvolveError("invalid_options", "nothing to check: give --task T|DIR and/or --agent DIR", { hint: "see evolve check --help" });
    // The checking code loads only when there is something to check: `--help` stays instant.
    const { checkTask } = await import("../../evolution/index.js");
    const { checkAgent } = await import("../check-agent.js");
    let failed = false;
    if (taskArg !== undefined) {
      const { task, problems } = await checkTask(resolveTaskArg(taskArg));
      if (task !== null && problems.length === 0) {
        out(`task ${task.manifest.name} (${task.dir}): ok: ${task.visible.length} visible and ${task.heldout.length} held-out instances; the grader scored a trivial candidate`);
      } else {
        failed = true;
        for (const problem of problems) out(problem);
      }
    }
    if (agentArg !== undefined) {
      const dir = resolve(agentArg);
      const scratch = await mkdtemp(join(tmpdir(), "evolve-check-"));
      try {
        const problems = await checkAgent(dir, scratch, engineConnector(values));
        if (problems.length === 0) out(`agent ${dir}: ok: policy, compile, signature and import`);
        else {
          failed = true;
          out(`agent ${dir} is invalid:\n- ${problems.join("\n- ")}`);
        }
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    }
    return failed ? 1 : 0;
  },
};
