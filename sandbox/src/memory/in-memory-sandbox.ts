/**
 * One sandbox of the in-memory engine (in-memory-engine.ts): a plain child process of this
 * one, in a process group of its own, with a temp folder for /work. Its lifecycle and
 * outcomes are DockerSandbox's: created → running (files in and out, stdio) → ended →
 * removed; the same output demux cuts stdout and stderr at their caps and hands stdout on
 * line by line, and files taken out go through the same safe extractor, so caps and
 * refusals come out the same. It isolates nothing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, copyFile, lstat, mkdir, readdir, readFile, readlink, rm, symlink } from "node:fs/promises";
import { availableParallelism, constants } from "node:os";
import { join, posix } from "node:path";
import type { Readable } from "node:stream";
import { pack } from "tar-fs";
import { WORK_DIR } from "../../runner/protocol.js";
import { EvolveError } from "../../../harness/src/kernel/index.js";
import { writeSandboxRecord, type SandboxRecord } from "./in-memory-records.js";
import { attachFrame, flushedOutcome, OutputDemux } from "../docker/index.js";
import { extractSafely } from "../extract/index.js";
import type { CreatedSandbox, RunningSandbox } from "../port/index.js";
import type { ContainerRunOptions, ExtractCaps, ExtractResult, RunOutcome } from "../port/index.js";

/** How long the last output may trail the process's exit (DockerSandbox waits as long). */
const OUTPUT_TRAIL_MS = 1_000;
/** How much of stderr's end is kept, whatever its cap, to tell a heap exhaustion. */
const STDERR_TAIL_BYTES = 4_096;
/** How often the resident memory is read: a hog gains at most this long's allocations past the limit. */
const MEMORY_LOOK_MS = 50;
/** CPU-seconds past the bound below that the process may still use (its start, a slow machine). */
const ORPHAN_CPU_MARGIN_S = 5;

/**
 * The shell's `ulimit -t` before it execs the command (the same process: its pid, group and
 * folder stay the sandbox's). Only for when this process dies without removing the sandbox
 * (a test run killed): nothing else would end an agent's busy loop, which then spun on the
 * host's cores. The bound is never reached while this process lives: the run's timeout kills
 * first, since a process on `cores` cores uses at most `cores` CPU-seconds a second.
 */
function withCpuBound(command: readonly string[], timeoutMs: number): [string, string[]] {
  const seconds = Number.isFinite(timeoutMs) ? Math.ceil(timeoutMs / 1000) * availableParallelism() + ORPHAN_CPU_MARGIN_S : "unlimited";
  return ["/bin/sh", ["-c", `ulimit -t ${seconds} && exec "$0" "$@"`, ...command]];
}

export interface MemorySandboxSetup {
  id: string;
  /** The sandbox's folder: its record, work/ (the container's /work) and tmp/ (its HOME). */
  dir: string;
  /** The host command, image paths already mapped (in-memory-stage.ts hostCommand). */
  command: string[];
  /** The spec's memory limit: past it in resident memory the process is killed, as by the OOM killer. */
  memoryBytes: number;
  record: SandboxRecord;
  /** Called once as the removal begins, with it (its engine counts what it runs and waits for removals). */
  onRemoved: (removal: Promise<void>) => void;
}

/** V8 out of heap prints its fatal report and aborts (SIGABRT): the cap from the memory limit was reached. */
function heapExhausted(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): boolean {
  return (signal === "SIGABRT" || code === 134) && /heap out of memory|Allocation failed/i.test(stderrTail);
}

export class MemorySandbox implements CreatedSandbox, RunningSandbox {
  private child: ChildProcess | null = null;
  private removed = false;
  private killedByHost = false;
  private timedOut = false;
  private outOfMemory = false;
  private finishedPromise: Promise<RunOutcome> | null = null;
  private demux: OutputDemux | null = null;
  private startedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private memoryWatch: NodeJS.Timeout | undefined;

  constructor(private readonly setup: MemorySandboxSetup) {}

  get id(): string {
    return this.setup.id;
  }

  get finished(): Promise<RunOutcome> {
    if (!this.finishedPromise) throw new Error("the sandbox has not started");
    return this.finishedPromise;
  }

  flushed(token: string, timeoutMs: number): Promise<RunOutcome | null> {
    if (!this.demux) throw new Error("the sandbox has not started");
    return flushedOutcome(this.demux, token, this.finished, this.startedAt, timeoutMs);
  }

  private get workDir(): string {
    return join(this.setup.dir, "work");
  }

  async start(options: ContainerRunOptions): Promise<RunningSandbox> {
    if (this.child !== null || this.removed) throw new Error("the sandbox has started already or was removed");
    const [program, args] = withCpuBound(this.setup.command, options.timeoutMs);
    const home = join(this.setup.dir, "tmp");
    const child = spawn(program, args, {
      cwd: this.workDir,
      // Nothing of this process's environment: no keys, no paths (as container-spec.ts's Env).
      env: { HOME: home, TMPDIR: home, NODE_ENV: "production", EVOLVE_RUNNER_WORK_DIR: this.workDir },
      stdio: ["pipe", "pipe", "pipe"],
      // A group of its own: kill and pause reach what it starts, as a container's cgroup would.
      detached: true,
    });
    this.child = child;
    const spawned = new Promise<Error | null>((resolve) => {
      child.once("spawn", () => resolve(null));
      child.once("error", resolve);
    });
    child.on("error", () => undefined);
    child.stdin!.on("error", () => undefined);
    this.finishedPromise = this.watch(child, options);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      void this.kill();
    }, options.timeoutMs);
    const failed = await spawned;
    if (failed !== null) {
      clearTimeout(this.timer);
      throw new EvolveError("engine_failed", `the in-memory engine could not start ${this.setup.command[0]}: ${failed.message}`, { cause: failed });
    }
    await writeSandboxRecord(this.setup.dir, { ...this.setup.record, pid: child.pid ?? null });
    if (child.pid !== undefined) this.watchMemory(child.pid);
    return this;
  }

  /**
   * The memory limit as a cgroup's OOM killer keeps it: the heap cap alone would let Buffers
   * (outside the heap) grow without end, so resident memory is read every MEMORY_LOOK_MS
   * (Linux's /proc; elsewhere only the heap cap holds) and past the limit the process gets SIGKILL.
   */
  private watchMemory(pid: number): void {
    this.memoryWatch = setInterval(() => {
      void readFile(`/proc/${pid}/status`, "utf8").then(
        (status) => {
          const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
          if (kb * 1024 <= this.setup.memoryBytes || this.outOfMemory) return;
          this.outOfMemory = true;
          this.signal("SIGKILL");
        },
        () => clearInterval(this.memoryWatch),
      );
    }, MEMORY_LOOK_MS);
    this.memoryWatch.unref();
  }

  /** Feeds stdout and stderr to the demux and resolves with the outcome once the process ended. */
  private async watch(child: ChildProcess, options: ContainerRunOptions): Promise<RunOutcome> {
    const startedAt = Date.now();
    this.startedAt = startedAt;
    const demux = new OutputDemux({
      stdoutCapBytes: options.stdoutCapBytes,
      stderrCapBytes: options.stderrCapBytes,
      ...(options.onStdoutLine ? { onStdoutLine: options.onStdoutLine } : {}),
      onStdoutOverflow: () => void this.kill(),
    });
    this.demux = demux;
    let tail = Buffer.alloc(0);
    child.stdout!.on("data", (chunk: Buffer) => demux.push(attachFrame(1, chunk)));
    child.stderr!.on("data", (chunk: Buffer) => {
      demux.push(attachFrame(2, chunk));
      tail = Buffer.concat([tail, chunk]).subarray(-STDERR_TAIL_BYTES);
    });
    const closed = Promise.all([new Promise((r) => child.stdout!.once("close", r)), new Promise((r) => child.stderr!.once("close", r))]);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
      child.once("exit", (c, s) => resolve([c, s]));
      // A process that never started has no exit to wait for; any other error leaves it running.
      child.once("error", () => {
        if (child.pid === undefined) resolve([null, null]);
      });
    });
    clearTimeout(this.timer);
    clearInterval(this.memoryWatch);
    const durationMs = Date.now() - startedAt;
    await Promise.race([closed, new Promise((r) => setTimeout(r, OUTPUT_TRAIL_MS))]);
    return {
      // A signal as a shell (and Docker) reports it: 128 + its number (SIGKILL → 137).
      exitCode: code ?? (signal === null ? null : 128 + constants.signals[signal]),
      timedOut: this.timedOut,
      oomKilled: this.outOfMemory || heapExhausted(code, signal, tail.toString("utf8")),
      killed: this.killedByHost,
      stdoutTruncated: demux.stdoutTruncated,
      stderrTruncated: demux.stderrTruncated,
      stderr: demux.stderrText(),
      durationMs,
    };
  }

  /** Signals the process group while its leader has not been reaped (after that its id may be another's). */
  private signal(name: NodeJS.Signals): void {
    const child = this.child;
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  }

  /** The host path of a container path under /work (DockerSandbox refuses others the same way). */
  private hostPath(containerDir: string): { path: string; relative: string } {
    const normal = posix.normalize(containerDir);
    if (normal !== WORK_DIR && !normal.startsWith(WORK_DIR + "/")) throw new Error(`container path must be under ${WORK_DIR}: ${containerDir}`);
    const relative = posix.relative(WORK_DIR, normal);
    return { path: join(this.workDir, ...relative.split("/").filter((s) => s !== "")), relative };
  }

  async putDirectory(hostDir: string, containerDir: string): Promise<void> {
    await copyTree(hostDir, this.hostPath(containerDir).path);
  }

  async takeDirectory(containerDir: string, hostDir: string, caps: Partial<ExtractCaps> = {}): Promise<ExtractResult> {
    const { path, relative } = this.hostPath(containerDir);
    if ((await lstat(path).catch(() => null)) === null) return { ok: false, reason: `the container's ${containerDir} could not be read: no such file or directory` };
    // As Docker's archive of a path: every entry under the path's base name, links as links.
    const rootName = relative === "" ? posix.basename(WORK_DIR) : posix.basename(relative);
    const archive = pack(path, {
      map: (header) => {
        header.name = header.name === "." ? rootName : `${rootName}/${header.name}`;
        return header;
      },
    });
    return extractSafely(archive as unknown as Readable, hostDir, rootName, caps);
  }

  send(message: unknown): void {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) return;
    stdin.write(JSON.stringify(message) + "\n");
  }

  closeStdin(): void {
    const stdin = this.child?.stdin;
    if (stdin && !stdin.writableEnded) stdin.end();
  }

  async pause(): Promise<void> {
    this.signal("SIGSTOP");
  }

  async kill(): Promise<void> {
    this.killedByHost = true;
    // SIGKILL ends a stopped (paused) process too.
    this.signal("SIGKILL");
  }

  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    const removal = this.removeNow();
    this.setup.onRemoved(removal);
    await removal;
  }

  private async removeNow(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.memoryWatch);
    this.signal("SIGKILL");
    if (this.finishedPromise) await Promise.race([this.finishedPromise, new Promise((r) => setTimeout(r, 5_000))]).catch(() => undefined);
    this.child?.stdin?.destroy();
    await rm(this.setup.dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

/** Copies a trusted host tree in: files 0644, folders 0755 (no mode bits travel in, as with DockerSandbox), links as links. */
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o755 });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await copyTree(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else if (entry.isFile()) {
      await copyFile(source, target);
      await chmod(target, 0o644);
    } else throw new Error(`unsupported type for ${source}`);
  }
}
