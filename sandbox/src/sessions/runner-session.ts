/**
 * The three things the harness asks of an agent, each in a fresh hardened container:
 * load it (import check), let its meta agent rewrite its tree (improve), and answer task
 * instances one call at a time (solve session). Outcomes are values; containers and
 * volumes are removed on every path.
 */
import { AGENT_DIR } from "../../runner/protocol.js";
import type { InitMessage } from "../../runner/protocol.js";
import { describeEnd, openRunnerChannel } from "./runner-channel.js";
import type { AgentContainerOptions } from "./runner-channel.js";
import type { ExtractCaps, ExtractResult, RunOutcome } from "../port/sandbox-port.js";

export type ImportCheck =
  | { ok: true; exports: Record<string, string>; outcome: RunOutcome }
  | { ok: false; reason: "load_error" | "load_timeout" | "exited" | "protocol"; message: string; outcome: RunOutcome };

/** Load task/index.js and meta/index.js of the build in a fresh container. */
export async function checkImports(options: AgentContainerOptions): Promise<ImportCheck> {
  const channel = await openRunnerChannel(options);
  try {
    channel.send({ type: "init", mode: "check" });
    const message = await channel.next();
    const outcome = await channel.finished;
    const violation = channel.violation();
    if (violation) return { ok: false, reason: "protocol", message: violation, outcome };
    if (message?.type === "ready") return { ok: true, exports: message.exports, outcome };
    if (message?.type === "load-error") return { ok: false, reason: "load_error", message: message.message, outcome };
    if (outcome.timedOut) return { ok: false, reason: "load_timeout", message: `loading did not finish within ${options.timeoutMs} ms`, outcome };
    return { ok: false, reason: "exited", message: `the process ${describeEnd(outcome, null)} before reporting its exports`, outcome };
  } finally {
    await channel.sandbox.remove();
  }
}

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

export interface ImproveOutcome {
  /** What `improve` returned (untrusted JSON), null when it did not return. */
  report: unknown;
  /** Why it did not return normally, null when it did. */
  error: string | null;
  extracted: ExtractResult;
  outcome: RunOutcome;
}

/** Run the parent's meta agent on its own tree; the edited tree comes back through the safe extractor. */
export async function runImprove(options: ImproveOptions): Promise<ImproveOutcome> {
  const channel = await openRunnerChannel(options, options.agentDir);
  try {
    channel.send({ type: "init", mode: "improve", ...options.init } as never);
    let report: unknown = null;
    let error: string | null = null;
    let returned = false;
    for (let message = await channel.next(); message; message = await channel.next()) {
      if (message.type === "load-error") {
        error = `the meta agent failed to load: ${message.message}`;
        break;
      }
      if (message.type === "result") {
        returned = true;
        if (message.ok) report = message.value;
        else error = `improve threw: ${message.error}`;
        break;
      }
    }
    let extracted: ExtractResult;
    if (returned && !channel.violation()) {
      // The runner waits for shutdown, so the tmpfs workspace is still there to take.
      extracted = await channel.sandbox.takeDirectory(AGENT_DIR, options.takeTo, options.extractCaps);
      channel.send({ type: "shutdown" });
    } else {
      await channel.sandbox.kill();
      extracted = { ok: false, reason: "the meta agent did not return, so its workspace was not taken" };
    }
    const outcome = await channel.finished;
    if (!returned || channel.violation()) error = error ?? `the meta agent ${describeEnd(outcome, channel.violation())}`;
    return { report, error, extracted, outcome };
  } finally {
    await channel.sandbox.remove();
  }
}

export type SolveReply =
  | { ok: true; value: unknown; durationMs: number }
  | { ok: false; kind: "timeout" | "crash" | "protocol" | "error"; reason: string; durationMs: number };

export interface SolveSession {
  /** False once the container has ended; calls then fail fast. */
  readonly alive: boolean;
  call(input: unknown, options: { timeoutMs: number }): Promise<SolveReply>;
  /** End the container (if still running) and remove it; returns how it ended. */
  close(): Promise<RunOutcome>;
}

export interface SolveSessionOptions extends AgentContainerOptions {
  task: string;
  seed: number;
  llmAvailable: boolean;
}

/** A container with the task agent loaded, answering one call at a time. */
export async function openSolveSession(options: SolveSessionOptions): Promise<SolveSession> {
  const channel = await openRunnerChannel(options);
  let alive = true;
  let deadReason = "";
  let nextId = 1;
  const markDead = async (reason: string): Promise<void> => {
    alive = false;
    deadReason = reason;
    await channel.sandbox.kill();
  };
  channel.send({ type: "init", mode: "solve", task: options.task, seed: options.seed, llmAvailable: options.llmAvailable });
  const first = await channel.next();
  if (first?.type !== "ready") {
    const outcome = await Promise.race([channel.finished, new Promise<null>((r) => setTimeout(r, 100, null))]);
    const why = first?.type === "load-error" ? `the task agent failed to load: ${first.message}` : outcome ? `the task agent ${describeEnd(outcome, channel.violation())}` : "the task agent did not report ready";
    await markDead(why);
  } else if (first.exports["solve"] !== "function") {
    await markDead(`solve is not a function (it is ${first.exports["solve"]})`);
  }
  return {
    get alive() {
      return alive;
    },
    async call(input, { timeoutMs }) {
      const started = Date.now();
      if (!alive) return { ok: false, kind: "crash", reason: `the session has ended: ${deadReason}`, durationMs: 0 };
      const id = nextId++;
      channel.send({ type: "call", id, input: input as never, deadline: Date.now() + timeoutMs });
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, timeoutMs, "timeout")));
      try {
        for (;;) {
          const message = await Promise.race([channel.next(), expired]);
          const durationMs = Date.now() - started;
          if (message === "timeout") {
            await markDead(`call ${id} took longer than ${timeoutMs} ms`);
            return { ok: false, kind: "timeout", reason: `no answer within ${timeoutMs} ms`, durationMs };
          }
          if (message === null) {
            const outcome = await channel.finished;
            const violation = channel.violation();
            await markDead(describeEnd(outcome, violation));
            return { ok: false, kind: violation ? "protocol" : "crash", reason: `the task agent ${deadReason}`, durationMs };
          }
          if (message.type === "result" && message.id === id) {
            return message.ok
              ? { ok: true, value: message.value, durationMs }
              : { ok: false, kind: "error", reason: `solve threw: ${message.error}`, durationMs };
          }
          // A result for another id, a second ready...: the agent is not following the protocol.
          await markDead(`unexpected ${message.type} message during call ${id}`);
          return { ok: false, kind: "protocol", reason: deadReason, durationMs };
        }
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (alive) {
        alive = false;
        deadReason = "closed";
        channel.send({ type: "shutdown" });
        channel.sandbox.closeStdin();
      }
      const outcome = await Promise.race([channel.finished, new Promise<null>((r) => setTimeout(r, 5_000, null))]);
      if (outcome === null) await channel.sandbox.kill();
      const final = outcome ?? (await channel.finished);
      await channel.sandbox.remove();
      return final;
    },
  };
}
