/**
 * One hardened container and its workspace volume, through its lifecycle:
 * created → running (files in/out, stdio) → ended → removed. Removal is idempotent and
 * never throws, so it can sit in every `finally`.
 */
import type Docker from "dockerode";
import { posix } from "node:path";
import type { Duplex } from "node:stream";
import { WORKSPACE_MOUNT } from "./container-spec.js";
import { SANDBOX_UID } from "../port/index.js";
import { flushedOutcome, OutputDemux } from "./output-demux.js";
import { packFolder } from "./tar-pack.js";
import { extractSafely } from "../extract/index.js";
import { engineReportedOom } from "./oom-event.js";
import { removeContainer } from "./remove-container.js";
import type { CreatedSandbox, RunningSandbox } from "../port/index.js";
import type { ExtractCaps, ExtractResult, ContainerRunOptions, RunOutcome } from "../port/index.js";

/** How long the output stream may trail the process's exit. */
const OUTPUT_GRACE_MS = 5_000;
/**
 * How long after a container's exit the engine's `oom` event may still come, for a SIGKILL
 * that the harness did not send (nearly always an OOM kill); only such a container waits.
 */
const OOM_EVENT_GRACE_MS = 3_000;

/** The part of /work a container path names, e.g. "/work/build" → "build". */
function workspaceRelative(containerDir: string): string {
  const normal = posix.normalize(containerDir);
  if (normal !== WORKSPACE_MOUNT && !normal.startsWith(WORKSPACE_MOUNT + "/")) {
    throw new Error(`container path must be under ${WORKSPACE_MOUNT}: ${containerDir}`);
  }
  return posix.relative(WORKSPACE_MOUNT, normal);
}

function isGone(error: unknown): boolean {
  const status = (error as { statusCode?: number } | null)?.statusCode;
  return status === 404 || status === 409 || status === 304;
}

export class DockerSandbox implements CreatedSandbox, RunningSandbox {
  private removed = false;
  private stdin: Duplex | null = null;
  private killedByHost = false;
  private timedOut = false;
  private finishedPromise: Promise<RunOutcome> | null = null;
  private demux: OutputDemux | null = null;
  private timer: NodeJS.Timeout | undefined;
  private activatedAt = 0;

  constructor(
    private readonly container: Docker.Container,
    /** The engine the container lives on, for its event log. */
    private readonly docker: Docker,
    /** Called once as the sandbox's removal begins, with it (its engine counts what it runs and waits for removals). */
    private readonly onRemoved: (removal: Promise<void>) => void = () => undefined,
  ) {}

  get id(): string {
    return this.container.id;
  }

  get finished(): Promise<RunOutcome> {
    if (!this.finishedPromise) throw new Error("the sandbox has not started");
    return this.finishedPromise;
  }

  flushed(token: string, timeoutMs: number): Promise<RunOutcome | null> {
    if (!this.demux) throw new Error("the sandbox has not started");
    return flushedOutcome(this.demux, token, this.finished, this.activatedAt, timeoutMs);
  }

  async start(options: ContainerRunOptions): Promise<RunningSandbox> {
    await this.prestart();
    return this.activate(options);
  }

  /**
   * Attach and start the process without handing it to anyone yet (a warm pool keeps
   * sandboxes here). Its output is held and its clock does not run until `activate`.
   */
  async prestart(): Promise<void> {
    const stream = (await this.container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as Duplex;
    this.stdin = stream;
    const demux = new OutputDemux(null);
    this.demux = demux;
    const streamEnded = new Promise<void>((resolve) => {
      stream.on("data", (chunk: Buffer) => demux.push(chunk));
      stream.on("end", resolve);
      stream.on("close", resolve);
      stream.on("error", () => resolve());
    });
    await this.container.start();
    this.activatedAt = Date.now();
    this.finishedPromise = (async (): Promise<RunOutcome> => {
      let exitCode: number | null = null;
      try {
        const result = (await this.container.wait()) as { StatusCode?: number };
        exitCode = typeof result.StatusCode === "number" ? result.StatusCode : null;
      } catch {
        exitCode = null;
      }
      clearTimeout(this.timer);
      const durationMs = Date.now() - this.activatedAt;
      // The last output frames can trail the exit, by more than a second on a loaded machine
      // (a 10 kB stderr once came back short under the test suite's load); a stream that
      // never ends costs this wait.
      await Promise.race([streamEnded, new Promise((r) => setTimeout(r, OUTPUT_GRACE_MS))]);
      // A runner that exited 0 ended by itself (its answers are in): nothing to look up.
      const oomKilled = exitCode === 0 ? false : await this.wasOomKilled((code) => (exitCode ??= code));
      return {
        exitCode,
        timedOut: this.timedOut,
        oomKilled,
        killed: this.killedByHost,
        stdoutTruncated: demux.stdoutTruncated,
        stderrTruncated: demux.stderrTruncated,
        stderr: demux.stderrText(),
        durationMs,
      };
    })();
  }

  /**
   * The engine's word on an OOM kill: the container's flag, or else, for a SIGKILL (137) that
   * the harness did not send, the engine's `oom` events (the flag alone missed one under runsc:
   * oom-event.ts). `onExitCode` gets the exit code when the wait gave none.
   */
  private async wasOomKilled(onExitCode: (code: number) => void): Promise<boolean> {
    // Removed by the harness while it ran (a session closed by removal): the SIGKILL was ours.
    if (this.removed) return false;
    let state: Docker.ContainerInspectInfo["State"];
    try {
      state = (await this.container.inspect()).State;
    } catch {
      return false; // already removed: nothing more to learn
    }
    if (typeof state.ExitCode === "number") onExitCode(state.ExitCode);
    if (state.OOMKilled === true) return true;
    if (state.ExitCode !== 137 || this.timedOut || this.killedByHost || this.removed) return false;
    // The window is on the engine's clock, from the container's start to a grace after its exit.
    const started = Date.parse(state.StartedAt);
    const finished = Date.parse(state.FinishedAt);
    const window = Number.isFinite(started) && Number.isFinite(finished) && finished >= started
      ? { fromMs: started, toMs: finished + OOM_EVENT_GRACE_MS }
      : { fromMs: this.activatedAt - 60_000, toMs: Date.now() + OOM_EVENT_GRACE_MS };
    return engineReportedOom(this.docker, this.container.id, window);
  }

  /** Hand a pre-started sandbox to its caller: caps, line sink, and the clock start now. */
  activate(options: ContainerRunOptions): RunningSandbox {
    if (!this.demux) throw new Error("activate before prestart");
    this.activatedAt = Date.now();
    this.demux.configure({
      stdoutCapBytes: options.stdoutCapBytes,
      stderrCapBytes: options.stderrCapBytes,
      ...(options.onStdoutLine ? { onStdoutLine: options.onStdoutLine } : {}),
      onStdoutOverflow: () => void this.kill(),
    });
    this.timer = setTimeout(() => {
      this.timedOut = true;
      void this.kill();
    }, options.timeoutMs);
    return this;
  }

  async putDirectory(hostDir: string, containerDir: string): Promise<void> {
    const prefix = workspaceRelative(containerDir);
    const archive = await packFolder(hostDir, {
      map: (header) => {
        header.name = header.name === "." ? prefix || "." : prefix ? `${prefix}/${header.name}` : header.name;
        header.uid = SANDBOX_UID;
        header.gid = SANDBOX_UID;
        // No set-id or executable bits travel in: agent trees are data.
        header.mode = header.type === "directory" ? 0o755 : 0o644;
        return header;
      },
    });
    await this.container.putArchive(archive, { path: WORKSPACE_MOUNT });
  }

  async takeDirectory(containerDir: string, hostDir: string, caps: Partial<ExtractCaps> = {}): Promise<ExtractResult> {
    const relative = workspaceRelative(containerDir);
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.container.getArchive({ path: containerDir });
    } catch (error) {
      return { ok: false, reason: `the container's ${containerDir} could not be read: ${(error as Error).message}` };
    }
    const rootName = relative === "" ? posix.basename(WORKSPACE_MOUNT) : posix.basename(relative);
    return extractSafely(stream as never, hostDir, rootName, caps);
  }

  send(message: unknown): void {
    if (!this.stdin || this.stdin.destroyed || this.stdin.writableEnded) return;
    this.stdin.write(JSON.stringify(message) + "\n");
  }

  closeStdin(): void {
    if (this.stdin && !this.stdin.writableEnded) this.stdin.end();
  }

  async pause(): Promise<void> {
    await this.container.pause().catch((error: unknown) => {
      if (!isGone(error)) throw error;
    });
  }

  async kill(): Promise<void> {
    this.killedByHost = true;
    try {
      await this.container.kill({ signal: "SIGKILL" });
    } catch (error) {
      if (!isGone(error)) {
        // A paused container must be thawed before it can die.
        await this.container.unpause().catch(() => undefined);
        await this.container.kill({ signal: "SIGKILL" }).catch(() => undefined);
      }
    }
  }

  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    clearTimeout(this.timer);
    this.stdin?.destroy();
    // The workspace is the container's anonymous volume, removed with it.
    const removal = removeContainer(this.container).then(() => undefined);
    this.onRemoved(removal);
    await removal;
  }
}
