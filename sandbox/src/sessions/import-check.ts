/**
 * Loading an agent in a fresh hardened container: the runner imports the build's entry
 * modules and reports the `typeof` of each contract export. The container is removed on
 * every path; how the load failed is a value.
 */
import type { ContainerEnd } from "../../../harness/src/kernel/index.js";
import type { RunOutcome } from "../port/index.js";
import { endOf, openRunnerChannel, type AgentContainerOptions } from "./runner-channel.js";

export type ImportCheck =
  | { ok: true; exports: Record<string, string>; outcome: RunOutcome }
  | (ContainerEnd<"load_error" | "timeout" | "oom" | "output_too_large" | "crash" | "protocol"> & { outcome: RunOutcome });

/** Loads task/index.js, meta/index.js (and tester/index.js when the build has it) in a fresh container. */
export async function checkImports(options: AgentContainerOptions): Promise<ImportCheck> {
  const channel = await openRunnerChannel(options);
  try {
    channel.send({ type: "init", mode: "check" });
    const message = await channel.next();
    const outcome = await channel.finished;
    const violation = channel.violation();
    if (violation === null && message?.type === "ready") return { ok: true, exports: message.exports, outcome };
    if (violation === null && message?.type === "load-error") return { ok: false, kind: "load_error", reason: message.message, outcome };
    const end = endOf(outcome, violation);
    const reason = end.kind === "timeout" ? `loading did not finish within ${options.timeoutMs} ms` : end.kind === "protocol" ? end.reason : `the process ${end.reason} before reporting its exports`;
    return { ...end, reason, outcome };
  } finally {
    await channel.sandbox.remove();
  }
}
