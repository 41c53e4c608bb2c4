/**
 * A SandboxEngine without Docker, FOR TESTS ONLY. It ISOLATES NOTHING: each sandbox is a plain
 * child process of this one (the host's node, `--max-old-space-size` from the spec's memory
 * limit) running the trusted runner staged from this checkout, with a temp folder for /work.
 * No namespaces, no network cut, no read-only root, no other user, no pids, CPU or tmpfs
 * limits, no runtime: the agent code it runs runs on the host. (Its CPU time is bounded, far
 * past the run's timeout, only so a process nobody removed ends: in-memory-sandbox.ts.) Only tests may import it
 * (tests/architecture/imports.test.ts checks that), so it can never be wired into the CLI.
 *
 * It is the port's twin, as ts-morph's InMemoryFileSystemHost is the twin of its file system:
 * tests of logic that is not about containers (the loop, selection, the arena, approval, the
 * archive) run against it without a container engine, while everything about containers and
 * isolation stays tested against Docker (tests/sandbox, tests/security, tests/e2e, tests/fleet).
 * "In memory" says where its state lives: the engine's own bookkeeping, no daemon.
 *
 * Why a child process per sandbox, not the runner inside this process: the runner owns its
 * process (it redirects console and stdout, calls process.exit, keeps agent modules in its
 * module cache and reads its folders once), so each sandbox needs a process of its own, as
 * each container has one. What it shares with the Docker engine is everything above the
 * process: the runner transpiled as the image has it, its protocol, the output demux (caps,
 * truncation flags, the line sink) and the safe extractor that files come out through.
 *
 * Memory is the one limit it keeps, for tests of how runs treat a memory hog: resident memory
 * past the spec's limit gets SIGKILL with `oomKilled` set (exit code 137, as from the OOM
 * killer), and the JS heap is capped at the limit too (a heap exhaustion aborts: exit code 134,
 * `oomKilled` set). Where it differs from a container, on purpose: a hard link comes out as a
 * copy where Docker's archive carries it as a link (refused); only the process it started is
 * signalled, not what that process left running after it ended; the spec's image must be this
 * engine's own tag and its command must start node.
 */
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { availableParallelism, hostname, totalmem } from "node:os";
import { join } from "node:path";
import { EvolveError } from "../../../harness/src/kernel/index.js";
import { countSandboxes, newRecord, sweepSandboxes, writeSandboxRecord } from "./in-memory-records.js";
import { MemorySandbox } from "./in-memory-sandbox.js";
import { DEFAULT_MEMORY_ROOT, hostCommand, stageRunner, type RunnerStage } from "./in-memory-stage.js";
import { DEFAULT_LIMITS } from "../port/index.js";
import { PendingRemovals, runnerCommand } from "../docker/index.js";
import type { CreatedSandbox, EngineEvent, EngineStatus, RunningSandbox, RuntimeImage, SandboxEngine } from "../port/index.js";
import type { ContainerRunOptions, EngineInfo, SandboxSpec, SweepResult } from "../port/index.js";

/** What engine events and statuses call it. */
const NAME = "in-memory";

export interface InMemoryEngineOptions {
  /** Folder for the staged runner and the sandboxes' folders (default: under the OS temp folder). */
  root?: string;
}

/** Docker's names for the machine (`uname -m`), which EngineInfo speaks. */
function architecture(): string {
  const names: Record<string, string> = { x64: "x86_64", arm64: "aarch64", arm: "armv7l" };
  return names[process.arch] ?? process.arch;
}

export class InMemoryEngine implements SandboxEngine {
  readonly endpoint = `memory://${hostname()}/${process.pid}`;
  private readonly root: string;
  private stage: Promise<RunnerStage> | null = null;
  private image: EngineStatus["image"] = null;
  private running = 0;
  private readonly removals = new PendingRemovals();
  private lastInfo: EngineInfo | null = null;
  private readonly listeners = new Set<(event: EngineEvent) => void>();

  constructor(options: InMemoryEngineOptions = {}) {
    this.root = options.root ?? DEFAULT_MEMORY_ROOT;
  }

  async info(): Promise<EngineInfo> {
    this.lastInfo = {
      endpoint: this.endpoint,
      version: process.versions.node,
      apiVersion: NAME,
      // runc names the default every spec asks for, so the harness's runtime checks pass
      // (no OCI runtime runs anything here); runsc is refused as by an engine without it.
      runtimes: ["runc"],
      architecture: architecture(),
      cpus: availableParallelism(),
      memoryBytes: totalmem(),
    };
    return this.lastInfo;
  }

  async ensureRuntimeImage(options: { baseImage?: string; onProgress?: (message: string) => void } = {}): Promise<RuntimeImage> {
    if (options.baseImage !== undefined) {
      throw new EvolveError("image_build_failed", `the in-memory engine runs the host's node; it has no base image ${options.baseImage}`);
    }
    const stage = await this.staged();
    return { tag: stage.tag, command: runnerCommand(null), built: this.image === "built" };
  }

  private staged(): Promise<RunnerStage> {
    this.stage ??= stageRunner(this.root).then(
      (stage) => {
        this.image = stage.built ? "built" : "found";
        return stage;
      },
      (error: unknown) => {
        this.stage = null;
        throw new EvolveError("image_build_failed", `staging the runner for the in-memory engine failed: ${(error as Error).message}`, { cause: error });
      },
    );
    return this.stage;
  }

  async createSandbox(spec: SandboxSpec): Promise<CreatedSandbox> {
    const created = await this.make(spec);
    this.emit({ type: "placed", engine: NAME, labels: spec.labels });
    return created;
  }

  async startSandbox(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox> {
    const created = await this.make(spec);
    let running: RunningSandbox;
    try {
      running = await created.start(options);
    } catch (error) {
      await created.remove();
      throw error;
    }
    this.emit({ type: "placed", engine: NAME, labels: spec.labels });
    return running;
  }

  /** A sandbox's folder and record, refused as Docker refuses a spec it cannot run. */
  private async make(spec: SandboxSpec): Promise<MemorySandbox> {
    const stage = await this.staged();
    if (spec.image !== stage.tag) throw new EvolveError("engine_failed", `the in-memory engine has no image ${spec.image} (it runs ${stage.tag} only)`);
    if ((spec.runtime ?? "runc") !== "runc") {
      throw new EvolveError("engine_failed", `the in-memory engine has no ${spec.runtime} runtime`, { hint: "tests of runtimes belong on the real engine" });
    }
    const id = `mem-${randomBytes(6).toString("hex")}`;
    const dir = join(stage.sandboxesDir, id);
    const memoryBytes = spec.limits?.memoryBytes ?? DEFAULT_LIMITS.memoryBytes;
    const command = hostCommand(spec.command, stage, join(dir, "work"), Math.max(16, Math.floor(memoryBytes / 2 ** 20)));
    if (command === null) throw new EvolveError("engine_failed", `the in-memory engine runs node only, not ${spec.command[0] ?? "(no command)"}`);
    // The record first: a folder the sweep finds always says whose it is.
    await mkdir(dir, { recursive: true });
    const record = newRecord(spec.labels);
    await writeSandboxRecord(dir, record);
    await mkdir(join(dir, "work"), { mode: 0o700 });
    await mkdir(join(dir, "tmp"), { mode: 0o700 });
    this.running++;
    return new MemorySandbox({
      id,
      dir,
      command,
      memoryBytes,
      record,
      onRemoved: (removal) => {
        this.running--;
        this.removals.track(removal);
      },
    });
  }

  /** Waits for removals under way; nothing else to release (no warm pool, no engines watched). Sandboxes still held are their holders' to remove. */
  async close(): Promise<void> {
    await this.removals.settled();
  }

  sweep(options: { all?: boolean; session?: string } = {}): Promise<SweepResult> {
    return sweepSandboxes(this.root, options);
  }

  async countManaged(session?: string): Promise<SweepResult> {
    await this.removals.settled();
    return countSandboxes(this.root, session);
  }

  engines(): EngineStatus[] {
    return [{ name: NAME, endpoint: this.endpoint, state: "up", reason: null, info: this.lastInfo, slots: null, running: this.running, image: this.image }];
  }

  watch(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
