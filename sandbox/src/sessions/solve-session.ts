/**
 * A task agent loaded in a fresh hardened container, answering task instances one call at a
 * time over the runner protocol. A call's failure is a value (`SolveReply`); a call that
 * times out or breaks the protocol ends the session, and later calls fail fast.
 */
import type { ContainerEnd } from "../../../harness/src/kernel/index.js";
import type { RunOutcome } from "../port/index.js";
import { endOf, FLUSH_GRACE_MS, openRunnerChannel, releaseChannel, type AgentContainerOptions, type RunnerChannel } from "./runner-channel.js";

/** One call's answer, as graders see it (the README's task API documents these four kinds). */
export type SolveReply =
  | { ok: true; value: unknown; durationMs: number }
  | (ContainerEnd<"timeout" | "crash" | "protocol" | "error"> & { durationMs: number });

/**
 * How loading went in a session opened with `check`: every export's `typeof`, or how the load
 * ended. With the container's outcome (from `close`) it is an `ImportCheck`.
 */
export type SessionImport = { ok: true; exports: Record<string, string> } | ContainerEnd<"load_error" | "timeout" | "oom" | "output_too_large" | "crash" | "protocol">;

export interface SolveSession {
  /** False once the container has ended; calls then fail fast. */
  readonly alive: boolean;
  /** With `check`: how loading the whole agent went; null without. */
  readonly imported: SessionImport | null;
  call(input: unknown, options: { timeoutMs: number }): Promise<SolveReply>;
  /** End the container (if still running) and remove it; returns how it ended. */
  close(): Promise<RunOutcome>;
  /**
   * End a session whose answers are all in: its stderr as soon as the runner has flushed it,
   * the container's teardown left to run in the background (its engine waits for it before it
   * counts or closes). A session that has died, or a runner that does not flush in time, ends
   * as `close` ends it.
   */
  release(): Promise<string>;
}

export interface SolveSessionOptions extends AgentContainerOptions {
  task: string;
  seed: number;
  llmAvailable: boolean;
  /**
   * Load the whole agent first, as the import check does (solve, improve, and propose when
   * the build has a tester), within `timeoutMs`: the import check in this session's container.
   */
  check?: { timeoutMs: number };
}

/** How long `close` waits for the runner to end by itself before killing it. */
const CLOSE_GRACE_MS = 5_000;

/** Why the loaded exports cannot take calls, or null when they can. */
function solveProblem(exports: Record<string, string>): string | null {
  return exports["solve"] === "function" ? null : `solve is not a function (it is ${exports["solve"]})`;
}

/** The first message of a checked session, within `timeoutMs`: the exports, or how loading ended. */
async function loaded(channel: RunnerChannel, timeoutMs: number): Promise<SessionImport> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, timeoutMs, "timeout")));
  try {
    const first = await Promise.race([channel.next(), expired]);
    if (first === "timeout") return { ok: false, kind: "timeout", reason: `loading did not finish within ${timeoutMs} ms` };
    if (first?.type === "ready") return { ok: true, exports: first.exports };
    if (first?.type === "load-error") return { ok: false, kind: "load_error", reason: first.message };
    if (first !== null) return { ok: false, kind: "protocol", reason: `unexpected ${first.type} message before ready` };
    const end = endOf(await channel.finished, channel.violation());
    return { ...end, reason: end.kind === "protocol" ? end.reason : `the process ${end.reason} before reporting its exports` };
  } finally {
    clearTimeout(timer);
  }
}

/** Why a freshly started solve runner cannot take calls, or null when it can. */
async function whyNotReady(channel: RunnerChannel): Promise<string | null> {
  const first = await channel.next();
  if (first?.type === "ready") return solveProblem(first.exports);
  if (first?.type === "load-error") return `the task agent failed to load: ${first.message}`;
  const outcome = await Promise.race([channel.finished, new Promise<null>((r) => setTimeout(r, 100, null))]);
  return outcome === null ? "the task agent did not report ready" : `the task agent ${endOf(outcome, channel.violation()).reason}`;
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
  const check = options.check;
  channel.send({ type: "init", mode: "solve", task: options.task, seed: options.seed, llmAvailable: options.llmAvailable, ...(check === undefined ? {} : { check: true }) });
  const imported = check === undefined ? null : await loaded(channel, check.timeoutMs);
  const notReady = imported === null ? await whyNotReady(channel) : imported.ok ? solveProblem(imported.exports) : imported.reason;
  if (notReady !== null) await markDead(notReady);
  return {
    get alive() {
      return alive;
    },
    imported,
    async call(input, { timeoutMs }) {
      if (!alive) return { ok: false, kind: "crash", reason: `the session has ended: ${deadReason}`, durationMs: 0 };
      return callOnce(channel, nextId++, input, timeoutMs, markDead);
    },
    async close() {
      if (alive) {
        alive = false;
        deadReason = "closed";
        channel.send({ type: "shutdown" });
        channel.sandbox.closeStdin();
      }
      return closeChannel(channel);
    },
    async release() {
      if (!alive) return (await closeChannel(channel)).stderr;
      alive = false;
      deadReason = "closed";
      // Ended without the flush, or deaf to the shutdown for the whole grace: no second grace.
      const flushed = await releaseChannel(channel, FLUSH_GRACE_MS);
      return (flushed ?? (await closeChannel(channel, 0))).stderr;
    },
  };
}

/** Waits for the process to end (killing it after `graceMs`), removes the container; how it ended. */
async function closeChannel(channel: RunnerChannel, graceMs = CLOSE_GRACE_MS): Promise<RunOutcome> {
  const outcome = await Promise.race([channel.finished, new Promise<null>((r) => setTimeout(r, graceMs, null))]);
  if (outcome === null) await channel.sandbox.kill();
  const final = outcome ?? (await channel.finished);
  await channel.sandbox.remove();
  return final;
}

/** Sends call `id` and waits for its result; anything else ends the session through `markDead`. */
async function callOnce(channel: RunnerChannel, id: number, input: unknown, timeoutMs: number, markDead: (reason: string) => Promise<void>): Promise<SolveReply> {
  const started = Date.now();
  channel.send({ type: "call", id, input: input as never, deadline: Date.now() + timeoutMs });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, timeoutMs, "timeout")));
  try {
    const message = await Promise.race([channel.next(), expired]);
    const durationMs = Date.now() - started;
    if (message === "timeout") {
      await markDead(`call ${id} took longer than ${timeoutMs} ms`);
      return { ok: false, kind: "timeout", reason: `no answer within ${timeoutMs} ms`, durationMs };
    }
    if (message === null) {
      const violation = channel.violation();
      const reason = `the task agent ${endOf(await channel.finished, violation).reason}`;
      await markDead(reason);
      return { ok: false, kind: violation === null ? "crash" : "protocol", reason, durationMs };
    }
    if (message.type === "result" && message.id === id) {
      return message.ok ? { ok: true, value: message.value, durationMs } : { ok: false, kind: "error", reason: `solve threw: ${message.error}`, durationMs };
    }
    // A result for another id, a second ready...: the agent is not following the protocol.
    const reason = `unexpected ${message.type} message during call ${id}`;
    await markDead(reason);
    return { ok: false, kind: "protocol", reason, durationMs };
  } finally {
    clearTimeout(timer);
  }
}
