/**
 * A warm pool: sandboxes created and started ahead of need, so a caller does not wait
 * for Docker to create and start one. Isolation is unchanged: every sandbox still serves
 * exactly one caller and is removed after; only the waiting happens earlier. Its clock
 * starts when it is handed out. Pooled sandboxes are labelled with the session and run
 * (and phase "pool"), since their generation is not known when they are made.
 */
import type { DockerSandbox } from "./docker-sandbox.js";
import type { RunningSandbox } from "../port/index.js";
import type { ContainerRunOptions, SandboxSpec } from "../port/index.js";

type Make = (spec: SandboxSpec) => Promise<DockerSandbox>;

/** Sandboxes made from specs with the same key are interchangeable. */
function poolKey(spec: SandboxSpec): string {
  const { image, command, runtime, limits, labels } = spec;
  return JSON.stringify({ image, command, runtime: runtime ?? "runc", limits: limits ?? {}, session: labels.session, run: labels.run ?? null });
}

export class WarmPool {
  private readonly idle = new Map<string, Promise<DockerSandbox | null>[]>();
  private closed = false;

  constructor(
    private readonly make: Make,
    /** Sandboxes kept warm per kind of spec. */
    private readonly size: number,
  ) {}

  /** A running sandbox for `spec`: a warm one if ready, else a fresh one. */
  async acquire(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox> {
    const key = poolKey(spec);
    const queue = this.idle.get(key) ?? [];
    this.idle.set(key, queue);
    const warm = queue.shift();
    this.refill(key, spec);
    const sandbox = warm ? await warm : null;
    if (sandbox) return sandbox.activate(options);
    const fresh = await this.make(spec);
    try {
      await fresh.prestart();
    } catch (error) {
      await fresh.remove();
      throw error;
    }
    return fresh.activate(options);
  }

  private refill(key: string, spec: SandboxSpec): void {
    const queue = this.idle.get(key);
    if (!queue || this.closed) return;
    const pooledSpec: SandboxSpec = { ...spec, labels: { session: spec.labels.session, ...(spec.labels.run ? { run: spec.labels.run } : {}), phase: "pool" } };
    while (queue.length < this.size) {
      queue.push(
        (async () => {
          const sandbox = await this.make(pooledSpec).catch(() => null);
          if (!sandbox) return null;
          try {
            await sandbox.prestart();
            return sandbox;
          } catch {
            await sandbox.remove();
            return null;
          }
        })(),
      );
    }
  }

  /** Remove every sandbox still waiting; later acquires make fresh ones. */
  async close(): Promise<void> {
    this.closed = true;
    const waiting = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(waiting.map(async (p) => (await p)?.remove()));
  }
}
