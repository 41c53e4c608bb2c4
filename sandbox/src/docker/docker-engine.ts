/**
 * The Docker adapter: one engine behind the sandbox port (with runtime-image.ts and
 * docker-sandbox.ts). The runtime image, creating sandboxes, and sweeping what dead sessions
 * left behind. The wiring point (connect-engines.ts) makes the client and hands it in.
 */
import type Docker from "dockerode";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { containerCreateOptions } from "./container-spec.js";
import { DockerSandbox } from "./docker-sandbox.js";
import { z } from "zod";
import { EvolveError } from "../../../harness/src/kernel/index.js";
import { LABEL_PREFIX } from "../port/index.js";
import { RuntimeImageSource } from "./runtime-image.js";
import type { CreatedSandbox, EngineEvent, EngineStatus, RunningSandbox, RuntimeImage, SandboxEngine } from "../port/index.js";
import type { ContainerRunOptions, EngineInfo, Runtime, SandboxSpec, SweepResult } from "../port/index.js";
import { runtimeBaseImage } from "./host-platform.js";
import { WarmPool } from "./warm-pool.js";
import { PendingRemovals } from "./pending-removals.js";
import { removeContainer } from "./remove-container.js";
import { packFolder } from "./tar-pack.js";

/** A session id names this process, so a later start can tell whether it is alive. */
export function newSessionId(): string {
  return `${hostname()}.${process.pid}.${randomBytes(4).toString("hex")}`;
}

/** `host.pid.nonce`, read from the right: host names may contain dots themselves. */
function sessionIsDead(session: string): boolean {
  const parts = session.split(".");
  if (parts.length < 3) return false;
  const pid = Number(parts[parts.length - 2]);
  const host = parts.slice(0, -2).join(".");
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false; // another machine's: not ours to judge
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** How a DockerEngine is known and how many sandboxes it keeps warm. */
export interface DockerEngineSettings {
  name: string;
  endpoint: string;
  warmPool: number;
  /** Docker's CgroupParent for every container of this engine (connect-engines.ts, EngineOptions). */
  cgroupParent?: string;
}

/** One Docker engine behind the sandbox port (alone, or as one member of a fleet). */
export class DockerEngine implements SandboxEngine {
  private imageBuild: Promise<RuntimeImage> | null = null;
  private pool: WarmPool | null;
  private running = 0;
  private readonly removals = new PendingRemovals();
  private image: EngineStatus["image"] = null;
  private lastInfo: EngineInfo | null = null;
  private readonly listeners = new Set<(event: EngineEvent) => void>();

  constructor(
    /** The client; only this module, docker-sandbox.ts and the wiring point hold one. */
    readonly docker: Docker,
    private readonly settings: DockerEngineSettings,
  ) {
    this.pool = this.newPool();
  }

  get name(): string {
    return this.settings.name;
  }

  get endpoint(): string {
    return this.settings.endpoint;
  }

  private newPool(): WarmPool | null {
    return this.settings.warmPool > 0 ? new WarmPool((spec) => this.createDockerSandbox(spec), this.settings.warmPool) : null;
  }

  /** Drop the warm sandboxes without waiting for the engine (it may not answer): they go when it does. */
  resetWarmPool(): void {
    void this.pool?.close().catch(() => undefined);
    this.pool = this.newPool();
  }

  async startSandbox(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox> {
    let running: RunningSandbox;
    if (this.pool) running = await this.pool.acquire(spec, options);
    else {
      const created = await this.createDockerSandbox(spec);
      try {
        running = await created.start(options);
      } catch (error) {
        await created.remove();
        throw error;
      }
    }
    this.emit({ type: "placed", engine: this.name, labels: spec.labels });
    return running;
  }

  async createSandbox(spec: SandboxSpec): Promise<CreatedSandbox> {
    const created = await this.createDockerSandbox(spec);
    this.emit({ type: "placed", engine: this.name, labels: spec.labels });
    return created;
  }

  async close(): Promise<void> {
    await this.pool?.close();
    await this.removals.settled();
  }

  /** Answers within `timeoutMs`, or throws. */
  async ping(timeoutMs: number): Promise<void> {
    // dockerode's ping takes options (an abort signal ends the request) its type declarations leave out.
    const ping = this.docker.ping.bind(this.docker) as unknown as (options: { abortSignal: AbortSignal }) => Promise<unknown>;
    await ping({ abortSignal: AbortSignal.timeout(timeoutMs) });
  }

  async info(): Promise<EngineInfo> {
    const [versionReply, infoReply] = await Promise.all([this.docker.version(), this.docker.info()]);
    // A remote engine's answer is data from another machine: read through a bounded schema.
    const version = EngineVersionReply.safeParse(versionReply);
    const info = EngineInfoReply.safeParse(infoReply);
    if (!version.success || !info.success) {
      const issue = (version.error ?? info.error)?.issues[0];
      throw new EvolveError("engine_failed", `the engine at ${this.endpoint} answered its version or info with an unexpected ${issue?.path.join(".") || "value"}: ${issue?.message ?? "unreadable"}`, {
        hint: "check that it is a Docker engine (docker --host … info)",
      });
    }
    const runtimes = Object.keys(info.data.Runtimes ?? {}).filter((r): r is Runtime => r === "runc" || r === "runsc");
    this.lastInfo = {
      endpoint: this.endpoint,
      version: version.data.Version,
      apiVersion: version.data.ApiVersion,
      runtimes: runtimes.sort(),
      architecture: info.data.Architecture ?? "unknown",
      cpus: info.data.NCPU ?? 1,
      memoryBytes: info.data.MemTotal ?? 0,
    };
    return this.lastInfo;
  }

  engines(): EngineStatus[] {
    return [{ name: this.name, endpoint: this.endpoint, state: "up", reason: null, info: this.lastInfo, slots: null, running: this.running, image: this.image }];
  }

  watch(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  ensureRuntimeImage(options: { baseImage?: string; onProgress?: (message: string) => void } = {}): Promise<RuntimeImage> {
    // One build per process even when many callers ask at once. EVOLVE_BASE_IMAGE names a
    // registry image (with `node` on its PATH) to layer the runner on instead of scratch.
    let baseImage: string | null;
    try {
      baseImage = options.baseImage ?? runtimeBaseImage();
    } catch (error) {
      return Promise.reject(error);
    }
    this.imageBuild ??= (async () => {
      const source = new RuntimeImageSource(baseImage);
      try {
        return await this.provision(source, options.onProgress);
      } finally {
        await source.dispose();
      }
    })().catch((error: unknown) => {
      this.imageBuild = null;
      throw error;
    });
    return this.imageBuild;
  }

  /** The image of `source` here: found by its content-hash tag, else built from the source's context. */
  async provision(source: RuntimeImageSource, onProgress?: (message: string) => void): Promise<RuntimeImage> {
    const { tag, command } = await source.describe();
    try {
      await this.docker.getImage(tag).inspect();
      this.image = "found";
      return { tag, command, built: false };
    } catch {
      // Not there yet: build it below.
    }
    onProgress?.(`runtime image: building ${tag} from ${source.baseImage ?? "the host's node (FROM scratch)"}`);
    const context = await source.context();
    // umask 0: keep modes as staged (/tmp is 1777).
    const stream = (await this.docker.buildImage(await packFolder(context, { umask: 0 }), {
      t: tag,
      rm: true,
      forcerm: true,
    })) as NodeJS.ReadableStream;
    await new Promise<void>((resolve, reject) => {
      this.docker.modem.followProgress(stream, (error: Error | null, events: { error?: string }[]) => {
        const failed = error?.message ?? events.find((e) => e.error)?.error;
        if (failed) reject(new EvolveError("image_build_failed", `building ${tag} on ${this.name} failed: ${failed}`));
        else resolve();
      });
    });
    this.image = "built";
    return { tag, command, built: true };
  }

  private async createDockerSandbox(spec: SandboxSpec): Promise<DockerSandbox> {
    try {
      const options = containerCreateOptions(spec);
      if (this.settings.cgroupParent !== undefined) options.HostConfig.CgroupParent = this.settings.cgroupParent;
      const container = await this.docker.createContainer(options);
      this.running++;
      return new DockerSandbox(container, this.docker, (removal) => {
        this.running--;
        this.removals.track(removal);
      });
    } catch (error) {
      const message = (error as Error).message;
      if (spec.runtime === "runsc" && /runtime/i.test(message)) {
        throw new EvolveError("engine_failed", `the engine ${this.name} has no runsc runtime: ${message}`, {
          hint: "install gVisor and register it in the engine's daemon.json, or use --runtime runc",
        });
      }
      throw new EvolveError("engine_failed", `creating a container on ${this.name} failed: ${message}`, { cause: error });
    }
  }

  private managedFilter(session?: string): string {
    const labels = [`${LABEL_PREFIX}.managed=true`];
    if (session) labels.push(`${LABEL_PREFIX}.session=${session}`);
    return JSON.stringify({ label: labels });
  }

  async countManaged(session?: string): Promise<SweepResult> {
    await this.removals.settled();
    const filters = this.managedFilter(session);
    const containers = await this.docker.listContainers({ all: true, filters });
    const volumes = (await this.docker.listVolumes({ filters })).Volumes ?? [];
    return { containers: containers.length, volumes: volumes.length };
  }

  async sweep(options: { all?: boolean; session?: string } = {}): Promise<SweepResult> {
    const filters = this.managedFilter(options.session);
    const shouldGo = (labels: Record<string, string> | undefined): boolean => {
      if (options.all || options.session) return true;
      const session = labels?.[`${LABEL_PREFIX}.session`];
      return session !== undefined && sessionIsDead(session);
    };
    // Listed first: a workspace is its container's anonymous volume and goes with it (`v`).
    const listed = ((await this.docker.listVolumes({ filters })).Volumes ?? []).filter((v) => shouldGo(v.Labels ?? undefined));
    let containers = 0;
    for (const info of await this.docker.listContainers({ all: true, filters })) {
      if (!shouldGo(info.Labels)) continue;
      if (await removeContainer(this.docker.getContainer(info.Id))) containers++;
    }
    let volumes = 0;
    for (const volume of listed) {
      // Gone already (404): removed with its container above; either way it was swept.
      await this.docker
        .getVolume(volume.Name)
        .remove()
        .then(
          () => volumes++,
          (error: { statusCode?: number }) => {
            if (error.statusCode === 404) volumes++;
          },
        );
    }
    return { containers, volumes };
  }
}

/** The fields of `GET /version` the harness reads, bounded. */
const EngineVersionReply = z.object({ Version: z.string().max(100), ApiVersion: z.string().max(20) });

/** The fields of `GET /info` the harness reads, bounded (slots are computed from NCPU and MemTotal). */
const EngineInfoReply = z.object({
  Runtimes: z.record(z.string().max(100), z.unknown()).optional(),
  Architecture: z.string().max(100).optional(),
  NCPU: z.number().int().min(1).max(100_000).optional(),
  MemTotal: z.number().int().nonnegative().optional(),
});
