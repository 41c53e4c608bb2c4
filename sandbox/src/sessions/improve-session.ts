/**
 * Self-modification in a fresh hardened container: the parent's meta agent runs on a copy of
 * its own tree, its LLM calls, tool events and ctx.evaluate requests go to the caller's
 * handlers, and the tree as it left it comes back through the safe extractor. How it
 * failed is a value; the container is removed on every path (in the background once a meta
 * agent that returned has flushed its stderr: runner-channel.ts `releaseChannel`).
 */
import type { ContainerEnd, InitMessage, WorkspaceTree } from "../../../harness/src/kernel/index.js";
import { TREE_SNAPSHOTS_STDOUT_BYTES } from "../../runner/tree-snapshot.js";
import type { ExtractCaps, ExtractResult, RunOutcome } from "../port/index.js";
import { DEFAULT_STDOUT_CAP, endOf, FLUSH_GRACE_MS, liveWorkspace, openRunnerChannel, releaseChannel, type AgentContainerOptions } from "./runner-channel.js";

/** What the runner needs to call `improve`: the request is the harness's ImproveRequest. */
export type ImproveInit = Omit<Extract<InitMessage, { mode: "improve" }>, "type" | "mode">;

export interface ImproveOptions extends AgentContainerOptions {
  /** Host folder with the parent's TypeScript tree; it becomes /work/agent. */
  agentDir: string;
  /** New host folder that receives the tree as the meta agent left it. */
  takeTo: string;
  init: ImproveInit;
  extractCaps?: Partial<ExtractCaps>;
}

/** Ways `improve` can end without returning. */
export type ImproveEnd = ContainerEnd<"load_error" | "error" | "timeout" | "oom" | "output_too_large" | "crash" | "protocol">;

export interface ImproveOutcome {
  /** What `improve` returned (untrusted JSON), null when it did not return. */
  report: unknown;
  /** Why it did not return normally; null when it did. */
  end: ImproveEnd | null;
  extracted: ExtractResult;
  outcome: RunOutcome;
}

/** Runs the parent's meta agent on its own tree; the edited tree comes back through the safe extractor. */
export async function runImprove(options: ImproveOptions): Promise<ImproveOutcome> {
  // The runner's tree snapshots (with each evaluate request and the result) have stdout of their own.
  const stdoutCapBytes = (options.stdoutCapBytes ?? DEFAULT_STDOUT_CAP) + TREE_SNAPSHOTS_STDOUT_BYTES;
  const channel = await openRunnerChannel({ ...options, stdoutCapBytes }, options.agentDir);
  try {
    channel.send({ type: "init", mode: "improve", ...options.init });
    let report: unknown = null;
    let end: ImproveEnd | null = null;
    let returned = false;
    let tree: WorkspaceTree | undefined;
    for (let message = await channel.next(); message; message = await channel.next()) {
      if (message.type === "load-error") {
        end = { ok: false, kind: "load_error", reason: `the meta agent failed to load: ${message.message}` };
        break;
      }
      if (message.type === "result") {
        returned = true;
        if (message.ok) {
          report = message.value;
          tree = message.tree;
        }
        else end = { ok: false, kind: "error", reason: `improve threw: ${message.error}` };
        break;
      }
    }
    let extracted: ExtractResult;
    let flushed: RunOutcome | null = null;
    if (returned && !channel.violation()) {
      // The tree came with the result, or the runner waits for shutdown, so the workspace is still there to take.
      extracted = await liveWorkspace(channel.sandbox, tree).take(options.takeTo, options.extractCaps);
      // Its work is done: its stderr once flushed, the container's teardown in the background.
      // Without the flush (it ended first, or was deaf to the shutdown for the whole grace) it
      // is killed, a no-op on an ended one: its tree is out already.
      flushed = await releaseChannel(channel, FLUSH_GRACE_MS);
      if (flushed === null) await channel.sandbox.kill();
    } else {
      await channel.sandbox.kill();
      extracted = { ok: false, reason: "the meta agent did not return, so its workspace was not taken" };
    }
    const outcome = flushed ?? (await channel.finished);
    if (end === null && (!returned || channel.violation() !== null)) {
      const ended = endOf(outcome, channel.violation());
      end = { ...ended, reason: ended.kind === "protocol" ? ended.reason : `the meta agent ${ended.reason}` };
    }
    return { report, end, extracted, outcome };
  } finally {
    await channel.sandbox.remove();
  }
}
