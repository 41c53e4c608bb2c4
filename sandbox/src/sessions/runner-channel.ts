/**
 * The host end of the runner protocol: starts a hardened container running the trusted
 * runner, puts the agent's files in, parses every stdout line as hostile data (zod), and
 * serves the agent's LLM requests through the caller's broker callback.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { AGENT_DIR } from "../../runner/protocol.js";
import { llmRefusal, RunnerMessage, type FilesMessage, type HostMessage, type ToolMessage, type WireJson, type WireLlmAnswer } from "../../../harness/src/kernel/index.js";
import type { RunningSandbox, RuntimeImage, SandboxEngine } from "../port/sandbox-port.js";
import type { ExtractCaps, ExtractResult, Runtime, RunOutcome, SandboxLabels, SandboxLimits } from "../port/sandbox-port.js";

/** The meta agent's workspace as it is now, for the host to take out (through the safe extractor). */
export interface LiveWorkspace {
  /** Takes /work/agent into a new host folder `hostDir`. */
  take(hostDir: string, caps?: Partial<ExtractCaps>): Promise<ExtractResult>;
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
  /**
   * Answers the meta agent's ctx.evaluate: `request` is unchecked agent data; the answer
   * goes back as it is. It must settle with a value (a refusal, not a rejection).
   */
  onEvaluate?: (request: unknown, workspace: LiveWorkspace) => Promise<WireJson>;
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

/** A host folder (trusted: the harness's own build or an archived snapshot) as one files message. */
async function filesMessage(root: FilesMessage["root"], dir: string): Promise<FilesMessage> {
  const files: FilesMessage["files"] = [];
  const walk = async (absolute: string, relative: string): Promise<void> => {
    for (const entry of await readdir(absolute, { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(join(absolute, entry.name), rel);
      else if (entry.isFile()) files.push({ path: rel, base64: (await readFile(join(absolute, entry.name))).toString("base64") });
    }
  };
  await walk(dir, "");
  return { type: "files", root, files };
}

/** Start the runner with the build (and agent tree) in place; caller removes `sandbox`. */
export async function openRunnerChannel(options: AgentContainerOptions, agentDir?: string): Promise<RunnerChannel> {
  const image = options.image;
  const spec = {
    image: image.tag,
    command: image.command,
    labels: options.labels,
    ...(options.runtime ? { runtime: options.runtime } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  };
  const queue: RunnerMessage[] = [];
  const waiters: ((message: RunnerMessage | null) => void)[] = [];
  let protocolViolation: string | null = null;
  let ended = false;
  let sandbox: RunningSandbox | null = null;

  const deliver = (message: RunnerMessage | null): void => {
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else if (message) queue.push(message);
  };

  const onLine = (line: string): void => {
    if (protocolViolation !== null) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    // A value nested thousands deep is legal JSON but overflows the recursive check: a
    // line that cannot be checked is no message, and must not throw into the output stream.
    let result: ReturnType<typeof RunnerMessage.safeParse> | null;
    try {
      result = RunnerMessage.safeParse(parsed);
    } catch {
      result = null;
    }
    if (result === null || !result.success) {
      protocolViolation = `the container printed a line that is not a protocol message: ${JSON.stringify(line.slice(0, 200))}`;
      void sandbox?.kill();
      return;
    }
    const message = result.data;
    if (message.type === "llm") return serveLlm(message);
    if (message.type === "tool") return options.onTool?.(message);
    if (message.type === "evaluate") return serveEvaluate(message);
    deliver(message);
  };

  const serveLlm = (message: Extract<RunnerMessage, { type: "llm" }>): void => {
    const answer = options.onLlm
      ? options.onLlm(message.request)
      : Promise.resolve(llmRefusal("unavailable", "no LLM is available in this run"));
    answer
      .catch((error: unknown) => llmRefusal("internal", `the harness failed to answer: ${error instanceof Error ? error.message : String(error)}`))
      .then((reply) => sandbox?.send({ type: "llm-result", id: message.id, ...reply }));
  };

  const serveEvaluate = (message: Extract<RunnerMessage, { type: "evaluate" }>): void => {
    const running = sandbox;
    if (running === null) return;
    const refuse = (reason: string): WireJson => ({ outcome: "refused", reason, remaining: 0 });
    const workspace: LiveWorkspace = { take: (hostDir, caps) => running.takeDirectory(AGENT_DIR, hostDir, caps) };
    const answer = options.onEvaluate ? options.onEvaluate(message.request, workspace) : Promise.resolve(refuse("this host does not evaluate drafts"));
    answer.then(
      (result) => running.send({ type: "evaluate-result", id: message.id, result }),
      () => running.send({ type: "evaluate-result", id: message.id, result: refuse("the host failed to evaluate the draft") }),
    );
  };

  sandbox = await options.engine.startSandbox(spec, {
    timeoutMs: options.timeoutMs,
    stdoutCapBytes: options.stdoutCapBytes ?? DEFAULT_STDOUT_CAP,
    stderrCapBytes: options.stderrCapBytes ?? DEFAULT_STDERR_CAP,
    onStdoutLine: onLine,
  });
  try {
    sandbox.send(await filesMessage("build", options.buildDir));
    if (agentDir !== undefined) sandbox.send(await filesMessage("agent", agentDir));
  } catch (error) {
    await sandbox.remove();
    throw error;
  }
  const running = sandbox;
  void running.finished.then(() => {
    ended = true;
    for (const waiter of waiters.splice(0)) waiter(null);
  });
  return {
    sandbox: running,
    send: (message) => running.send(message),
    next: () => {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => waiters.push(resolve));
    },
    violation: () => protocolViolation,
    finished: running.finished,
  };
}

/** One line about how a process ended, for reasons and feedback. */
export function describeEnd(outcome: RunOutcome, violation: string | null): string {
  if (violation) return violation;
  if (outcome.timedOut) return "killed at the time limit";
  if (outcome.oomKilled) return "killed by the out-of-memory killer (memory limit reached)";
  if (outcome.stdoutTruncated) return "killed for flooding stdout past its cap";
  const tail = outcome.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 300);
  return `exited with code ${outcome.exitCode ?? "unknown"}${tail ? `: ${tail}` : ""}`;
}
