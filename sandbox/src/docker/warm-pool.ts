/**
 * A warm pool: sandboxes created and started ahead of need, so a caller does not wait
 * for Docker to create and start one. Isolation is unchanged: every sandbox still serves
 * exactly one caller and is removed after; only the waiting happens earlier. Its clock
 * starts when it is handed out. Pooled sandboxes are labelled with the session and run
 * (and phase "pool"), since their generation is not known when they are made.
 *
 * The pool sizes itself to the demand W workers and the engine's slots make: it starts with
 * `size` per kind, and whenever a caller has to wait for a pooled sandbox still being made
 * (the kind is asked for faster than the pool keeps up), it keeps one more of that kind
 * ready, up to `max`. One worker never grows it; eight do, to what they use at once.
 *
 * The pool makes its sandboxes one at a time, in a line. Callers come in bursts (W children
 * starting together, or finishing and being evaluated together); making a sandbox for each at
 * once puts every creation on the CPU at the same moment as the burst's own work, and each
 * takes longer than the line would have. A caller that takes a sandbox still in the line waits
 * for its turn. With the slow scripted model at W = 8 this took bench:llm-throughput from
 * 63–70 % of ideal to 71–75 % (nine runs each, in turn); letting such a caller make its
 * own sandbox at once instead gave back most of the gain (70–71 %).
 */
import type { DockerSandbox } from "./docker-sandbox.js";
import type { RunningSandbox } from "../port/index.js";
import type { ContainerRunOptions, SandboxSpec } from "../port/index.js";

type Make = (spec: SandboxSpec) => Promise<DockerSandbox>;

/** A pooled sandbox waiting its turn, being made, or ready (null: making it failed, or the pool closed first). */
interface Warm {
  sandbox: Promise<DockerSandbox | null>;
  ready: boolean;
}

/** The most sandboxes of one kind a pool keeps ready (also EVOLVE_WARM_POOL's bound). */
export const MAX_WARM_POOL = 8;

/** Sandboxes made from specs with the same key are interchangeable. */
function poolKey(spec: SandboxSpec): string {
  const { image, command, runtime, limits, labels } = spec;
  return JSON.stringify({ image, command, runtime: runtime ?? "runc", limits: limits ?? {}, session: labels.session, run: labels.run ?? null });
}

export class WarmPool {
  private readonly idle = new Map<string, Warm[]>();
  /** Sandboxes kept ready per kind: `size`, grown by demand up to `max`. */
  private readonly depth = new Map<string, number>();
  private closed = false;
  /** Settles when the last sandbox in the pool's line has been made (or skipped: the pool closed first). */
  private lineEnd: Promise<void> = Promise.resolve();

  constructor(
    private readonly make: Make,
    /** Sandboxes kept warm per kind of spec, at first. */
    private readonly size: number,
    private readonly max = Math.max(size, MAX_WARM_POOL),
  ) {}

  /** How many sandboxes of `spec`'s kind the pool keeps ready now. */
  depthOf(spec: SandboxSpec): number {
    return this.depth.get(poolKey(spec)) ?? this.size;
  }

  /** A running sandbox for `spec`: a warm one if ready, else a fresh one. */
  async acquire(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox> {
    const key = poolKey(spec);
    const queue = this.idle.get(key) ?? [];
    this.idle.set(key, queue);
    const warm = queue.shift();
    if (warm !== undefined && !warm.ready) this.depth.set(key, Math.min(this.max, this.depthOf(spec) + 1));
    this.refill(key, spec);
    const sandbox = warm ? await warm.sandbox : null;
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
    const depth = this.depth.get(key) ?? this.size;
    while (queue.length < depth) {
      const warm: Warm = { sandbox: Promise.resolve(null), ready: false };
      const turn = this.lineEnd;
      warm.sandbox = (async () => {
        await turn;
        if (this.closed) return null;
        const sandbox = await this.make(pooledSpec).catch(() => null);
        if (!sandbox) return null;
        try {
          await sandbox.prestart();
          return sandbox;
        } catch {
          await sandbox.remove();
          return null;
        }
      })().finally(() => (warm.ready = true));
      this.lineEnd = warm.sandbox.then(() => undefined);
      queue.push(warm);
    }
  }

  /** Remove every sandbox still waiting; later acquires make fresh ones. */
  async close(): Promise<void> {
    this.closed = true;
    const waiting = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(waiting.map(async (w) => (await w.sandbox)?.remove()));
  }
}
