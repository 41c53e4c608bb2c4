/**
 * The host end of the runner protocol: starts a hardened container running the trusted
 * runner, puts the agent's files in, parses every stdout line as hostile data (zod), and
 * hands the agent's LLM calls, tool events and evaluate requests to the caller's handlers.
 * The channel relays; what an answer means is the caller's (the broker's, ctx.evaluate's).
 */
import { randomUUID } from "node:crypto";
import type { ContainerEnd, HostMessage, RunnerMessage, ToolMessage, WireJson, WireLlmAnswer, WorkspaceTree } from "../../../harness/src/kernel/index.js";
import { llmRefusal } from "../../../harness/src/kernel/index.js";
import { AGENT_DIR } from "../../runner/protocol.js";
import type { ExtractCaps, ExtractResult, RunningSandbox, RunOutcome, Runtime, RuntimeImage, SandboxEngine, SandboxLabels, SandboxLimits } from "../port/index.js";
import { extractTree } from "../extract/index.js";
import { filesMessage } from "./files-message.js";
import { MessageQueue } from "./message-queue.js";

/** The meta agent's workspace as it is now, for the host to take out (through the safe extractor). */
export interface LiveWorkspace {
  /** Takes /work/agent into a new host folder `hostDir`. */
  take(hostDir: string, caps?: Partial<ExtractCaps>): Promise<ExtractResult>;
}

/**
 * Answers the meta agent's evaluate requests (`request` is unchecked agent data). `answer`
 * settles with the value the agent gets; `unavailable` is what the agent gets when
 * `answer` rejects (the host failed), in the same format.
 */
export interface EvaluateService {
  answer(request: unknown, workspace: LiveWorkspace): Promise<WireJson>;
  unavailable(reason: string): WireJson;
}

export interface AgentContainerOptions {
  engine: SandboxEngine;
  /** The runtime image: its tag and the command that starts the runner in it. */
  image: RuntimeImage;
  labels: SandboxLabels;
  /** Host folder with the emitted JS of the agent; it becomes /work/build. */
  buildDir: string;
  runtime?: Runtime;
  limits?: Partial<SandboxLimits>;
  /** Wall clock for the whole container; SIGKILL at expiry. */
  timeoutMs: number;
  stdoutCapBytes?: number;
  stderrCapBytes?: number;
  /**
   * The broker: parses the agent's request (unchecked JSON) and answers it, a refusal
   * included. It rejects only when the harness itself failed; the agent then gets code "internal".
   */
  onLlm?: (request: unknown) => Promise<WireLlmAnswer>;
  onTool?: (event: ToolMessage) => void;
  /** The meta agent's ctx.evaluate; without one, an evaluate request is answered with null. */
  evaluate?: EvaluateService;
}

export const DEFAULT_STDOUT_CAP = 8 * 1024 * 1024;
export const DEFAULT_STDERR_CAP = 256 * 1024;

export interface RunnerChannel {
  sandbox: RunningSandbox;
  send(message: HostMessage): void;
  /** Resolves with the next protocol message, or null once the process has ended. */
  next(): Promise<RunnerMessage | null>;
  /** Set when a line was not a protocol message: the container is then killed. */
  violation(): string | null;
  finished: Promise<RunOutcome>;
}

/** Starts the runner with the build (and agent tree) in place; the caller removes `sandbox`. */
export async function openRunnerChannel(options: AgentContainerOptions, agentDir?: string): Promise<RunnerChannel> {
  const spec = {
    image: options.image.tag,
    command: options.image.command,
    labels: options.labels,
    ...(options.runtime ? { runtime: options.runtime } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  };
  let sandbox: RunningSandbox | null = null;
  const queue = new MessageQueue({
    llm: (message) => serveLlm(() => sandbox, message, options.onLlm),
    tool: (message) => options.onTool?.(message),
    evaluate: (message) => serveEvaluate(() => sandbox, message, options.evaluate),
    violated: () => void sandbox?.kill(),
  });
  sandbox = await options.engine.startSandbox(spec, {
    timeoutMs: options.timeoutMs,
    stdoutCapBytes: options.stdoutCapBytes ?? DEFAULT_STDOUT_CAP,
    stderrCapBytes: options.stderrCapBytes ?? DEFAULT_STDERR_CAP,
    onStdoutLine: (line) => queue.line(line),
  });
  try {
    sandbox.send(await filesMessage("build", options.buildDir));
    if (agentDir !== undefined) sandbox.send(await filesMessage("agent", agentDir));
  } catch (error) {
    await sandbox.remove();
    throw error;
  }
  const running = sandbox;
  void running.finished.then(() => queue.end());
  return { sandbox: running, send: (message) => running.send(message), next: () => queue.next(), violation: () => queue.violation(), finished: running.finished };
}

function serveLlm(sandbox: () => RunningSandbox | null, message: Extract<RunnerMessage, { type: "llm" }>, onLlm: AgentContainerOptions["onLlm"]): void {
  const answer = onLlm ? onLlm(message.request) : Promise.resolve(llmRefusal("unavailable", "no LLM is available in this run"));
  answer
    .catch((error: unknown) => llmRefusal("internal", `the harness failed to answer: ${error instanceof Error ? error.message : String(error)}`))
    .then((reply) => sandbox()?.send({ type: "llm-result", id: message.id, ...reply }));
}

function serveEvaluate(sandbox: () => RunningSandbox | null, message: Extract<RunnerMessage, { type: "evaluate" }>, service: EvaluateService | undefined): void {
  const running = sandbox();
  if (running === null) return;
  if (service === undefined) return running.send({ type: "evaluate-result", id: message.id, result: null });
  const workspace = liveWorkspace(running, message.tree);
  service.answer(message.request, workspace).then(
    (result) => running.send({ type: "evaluate-result", id: message.id, result }),
    (error: unknown) => running.send({ type: "evaluate-result", id: message.id, result: service.unavailable(`the host failed: ${error instanceof Error ? error.message : String(error)}`) }),
  );
}

/** How long a runner told to shut down has to flush its stderr (and, when it does not, to end). */
export const FLUSH_GRACE_MS = 5_000;

/**
 * Ends a runner whose work is done without waiting for the engine's teardown: the shutdown
 * carries a random token the runner writes to stderr as it exits (so no output of the agent's
 * can pass for it before the shutdown is sent); once it is through, the process's outcome as
 * flushed (sandbox-port.ts `flushed`) and the container's removal left to run in the background,
 * its engine waiting for it before it counts or closes. Null when the process ended without
 * the token or did not flush within `graceMs`: the caller ends it as before.
 */
export async function releaseChannel(channel: RunnerChannel, graceMs: number): Promise<RunOutcome | null> {
  const token = `evolve-flushed-${randomUUID()}`;
  channel.send({ type: "shutdown", flush: token });
  channel.sandbox.closeStdin();
  const flushed = await channel.sandbox.flushed(token, graceMs);
  if (flushed !== null) void channel.sandbox.remove();
  return flushed;
}

/**
 * The agent tree as the runner sent it with its message (written through the extractor's rules),
 * or, when it sent none, as Docker's archive of the volume gives it now.
 */
export function liveWorkspace(running: RunningSandbox, tree: WorkspaceTree | undefined): LiveWorkspace {
  return { take: (hostDir, caps) => (tree === undefined ? running.takeDirectory(AGENT_DIR, hostDir, caps) : extractTree(tree, hostDir, caps)) };
}

/**
 * How a process ended without answering: the kind, and one line about it for reasons and
 * feedback (the protocol violation itself when there was one).
 */
export function endOf(outcome: RunOutcome, violation: string | null): ContainerEnd<"timeout" | "oom" | "output_too_large" | "crash" | "protocol"> {
  if (violation !== null) return { ok: false, kind: "protocol", reason: violation };
  if (outcome.timedOut) return { ok: false, kind: "timeout", reason: "killed at the time limit" };
  if (outcome.oomKilled) return { ok: false, kind: "oom", reason: "killed by the out-of-memory killer (memory limit reached)" };
  if (outcome.stdoutTruncated) return { ok: false, kind: "output_too_large", reason: "killed for flooding stdout past its cap" };
  const tail = outcome.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 300);
  return { ok: false, kind: "crash", reason: `exited with code ${outcome.exitCode ?? "unknown"}${tail ? `: ${tail}` : ""}` };
}
