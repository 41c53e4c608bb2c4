/**
 * The Docker adapter: the only place that talks to the engine (with runtime-image.ts and
 * docker-sandbox.ts). Preflight, the runtime image, creating sandboxes, and sweeping what
 * dead sessions left behind.
 */
import Docker from "dockerode";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { rm } from "node:fs/promises";
import { pack } from "tar-fs";
import { containerCreateOptions, workspaceVolumeOptions } from "./container-spec.js";
import { DockerSandbox } from "./docker-sandbox.js";
import { EvolveError } from "./errors.js";
import { LABEL_PREFIX } from "./limits.js";
import { collectImageInputs, hashImageInputs, runnerCommand, stageBuildContext } from "./runtime-image.js";
import type { CreatedSandbox, EngineInfo, RunningSandbox, ContainerRunOptions, Runtime, SandboxSpec, SweepResult } from "./types.js";
import { WarmPool } from "./warm-pool.js";

export interface RuntimeImage {
  tag: string;
  /** The command that starts the trusted runner in this image. */
  command: string[];
  built: boolean;
}

export interface SandboxEngine {
  readonly endpoint: string;
  info(): Promise<EngineInfo>;
  /** Find or build the runtime image (never pulls unless the user named a base image). */
  ensureRuntimeImage(options?: { baseImage?: string; onProgress?: (message: string) => void }): Promise<RuntimeImage>;
  createSandbox(spec: SandboxSpec): Promise<CreatedSandbox>;
  /** Create and start in one step; from the warm pool when the engine keeps one. */
  startSandbox(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox>;
  /** Remove the warm pool's idle sandboxes (call before exit). */
  close(): Promise<void>;
  /** Remove labelled containers and volumes: of dead sessions, or all with `all`. */
  sweep(options?: { all?: boolean; session?: string }): Promise<SweepResult>;
  /** Count labelled containers and volumes (of one session, or all). */
  countManaged(session?: string): Promise<SweepResult>;
}

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

function describeEndpoint(): string {
  return process.env["DOCKER_HOST"] ?? "unix:///var/run/docker.sock";
}

export interface EngineOptions {
  /** Sandboxes kept created-and-started per kind of spec; overrides everything else. */
  warmPool?: number;
  /** The pool size when EVOLVE_WARM_POOL is unset (default 0: no pool). */
  warmPoolDefault?: number;
}

const MAX_WARM_POOL = 8;

/** EVOLVE_WARM_POOL when set (0 turns the pool off), else `fallback`; anything but 0..8 is refused. */
export function warmPoolFromEnvironment(fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env["EVOLVE_WARM_POOL"];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > MAX_WARM_POOL) {
    throw new EvolveError("invalid_options", `EVOLVE_WARM_POOL must be a whole number from 0 to ${MAX_WARM_POOL}, not "${raw}"`, {
      hint: "unset it for the default, or set 0 to turn the warm pool off",
    });
  }
  return value;
}

/** Connect and ping; an unreachable engine is an EvolveError that says what to do. */
export async function connectEngine(options: EngineOptions = {}): Promise<SandboxEngine> {
  const endpoint = describeEndpoint();
  const docker = new Docker();
  try {
    await docker.ping();
  } catch (error) {
    throw new EvolveError("engine_unreachable", `no Docker engine answers at ${endpoint} (${(error as Error).message})`, {
      cause: error,
      hint: "start one (as root on Debian, `npm test` or `npm start` does it for you; elsewhere `sudo systemctl start docker`) or set DOCKER_HOST",
    });
  }
  return new DockerEngine(docker, endpoint, options.warmPool ?? warmPoolFromEnvironment(options.warmPoolDefault ?? 0));
}

class DockerEngine implements SandboxEngine {
  private imageBuild: Promise<RuntimeImage> | null = null;
  private readonly pool: WarmPool | null;

  constructor(
    private readonly docker: Docker,
    readonly endpoint: string,
    warmPool: number,
  ) {
    this.pool = warmPool > 0 ? new WarmPool((spec) => this.createDockerSandbox(spec), warmPool) : null;
  }

  async startSandbox(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox> {
    if (this.pool) return this.pool.acquire(spec, options);
    const created = await this.createSandbox(spec);
    try {
      return await created.start(options);
    } catch (error) {
      await created.remove();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }

  async info(): Promise<EngineInfo> {
    const [version, info] = await Promise.all([this.docker.version(), this.docker.info() as Promise<{ Runtimes?: Record<string, unknown> }>]);
    const runtimes = Object.keys(info.Runtimes ?? {}).filter((r): r is Runtime => r === "runc" || r === "runsc");
    return { endpoint: this.endpoint, version: version.Version, apiVersion: version.ApiVersion, runtimes: runtimes.sort() };
  }

  ensureRuntimeImage(options: { baseImage?: string; onProgress?: (message: string) => void } = {}): Promise<RuntimeImage> {
    // One build per process even when many callers ask at once. EVOLVE_BASE_IMAGE names a
    // registry image (with `node` on its PATH) to layer the runner on instead of scratch.
    const baseImage = options.baseImage ?? (process.env["EVOLVE_BASE_IMAGE"] || null);
    this.imageBuild ??= this.buildIfMissing(baseImage, options.onProgress).catch((error: unknown) => {
      this.imageBuild = null;
      throw error;
    });
    return this.imageBuild;
  }

  private async buildIfMissing(baseImage: string | null, onProgress?: (message: string) => void): Promise<RuntimeImage> {
    const inputs = await collectImageInputs(baseImage);
    const hash = await hashImageInputs(inputs);
    const tag = `evolve-runtime:${hash}`;
    const command = runnerCommand(baseImage);
    try {
      await this.docker.getImage(tag).inspect();
      return { tag, command, built: false };
    } catch {
      // Not there yet: build it below.
    }
    onProgress?.(`runtime image: building ${tag} from ${baseImage ?? "the host's node (FROM scratch)"}`);
    const context = await stageBuildContext(inputs, hash);
    try {
      // umask 0: keep modes as staged (/tmp is 1777); @types/tar-fs does not declare it.
      const keepModes = { umask: 0 } as never;
      const stream = (await this.docker.buildImage(pack(context, keepModes) as unknown as NodeJS.ReadableStream, {
        t: tag,
        rm: true,
        forcerm: true,
      })) as NodeJS.ReadableStream;
      await new Promise<void>((resolve, reject) => {
        this.docker.modem.followProgress(
          stream,
          (error: Error | null, events: { error?: string }[]) => {
            const failed = error?.message ?? events.find((e) => e.error)?.error;
            if (failed) reject(new EvolveError("image_build_failed", `building ${tag} failed: ${failed}`));
            else resolve();
          },
        );
      });
    } finally {
      await rm(context, { recursive: true, force: true });
    }
    return { tag, command, built: true };
  }

  createSandbox(spec: SandboxSpec): Promise<CreatedSandbox> {
    return this.createDockerSandbox(spec);
  }

  private async createDockerSandbox(spec: SandboxSpec): Promise<DockerSandbox> {
    const volumeName = `evolve-ws-${randomBytes(8).toString("hex")}`;
    await this.docker.createVolume(workspaceVolumeOptions(volumeName, spec.labels) as never);
    try {
      const container = await this.docker.createContainer(containerCreateOptions(spec, volumeName) as never);
      return new DockerSandbox(this.docker, container, volumeName);
    } catch (error) {
      await this.docker.getVolume(volumeName).remove().catch(() => undefined);
      const message = (error as Error).message;
      if (spec.runtime === "runsc" && /runtime/i.test(message)) {
        throw new EvolveError("engine_failed", `the engine has no runsc runtime: ${message}`, {
          hint: "install gVisor and register it in /etc/docker/daemon.json, or use --runtime runc",
        });
      }
      throw new EvolveError("engine_failed", `creating a container failed: ${message}`, { cause: error });
    }
  }

  private managedFilter(session?: string): string {
    const labels = [`${LABEL_PREFIX}.managed=true`];
    if (session) labels.push(`${LABEL_PREFIX}.session=${session}`);
    return JSON.stringify({ label: labels });
  }

  async countManaged(session?: string): Promise<SweepResult> {
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
    let containers = 0;
    for (const info of await this.docker.listContainers({ all: true, filters })) {
      if (!shouldGo(info.Labels)) continue;
      await this.docker.getContainer(info.Id).remove({ force: true }).then(() => containers++, () => undefined);
    }
    let volumes = 0;
    for (const volume of (await this.docker.listVolumes({ filters })).Volumes ?? []) {
      if (!shouldGo(volume.Labels ?? undefined)) continue;
      await this.docker.getVolume(volume.Name).remove().then(() => volumes++, () => undefined);
    }
    return { containers, volumes };
  }
}
