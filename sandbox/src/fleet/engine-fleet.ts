/**
 * Several Docker engines behind the one sandbox port. Each container goes to the least-loaded
 * engine that is up, has the runtime and has a free slot (else it waits for one). Every
 * engine keeps its own runtime image (same build context, same content-hash tag) and its own
 * warm pool. A health check pings each engine: one that stops answering is marked down and
 * the sandboxes on it are lost (reported, never waited on); when it answers again its strays
 * are swept, its image checked, and it takes containers again.
 */
import { runtimeBaseImage } from "../docker/index.js";
import { EvolveError, Runtime } from "../../../harness/src/kernel/index.js";
import type { FleetMember } from "./fleet-member.js";
import { FleetSandbox, type FleetHooks } from "./fleet-sandbox.js";
import { RuntimeImageSource } from "../docker/index.js";
import type { CreatedSandbox, EngineEvent, EngineStatus, RunningSandbox, RuntimeImage, SandboxEngine } from "../port/index.js";
import type { ContainerRunOptions, EngineInfo, SandboxLabels, SandboxSpec, SweepResult } from "../port/index.js";

export interface HealthSettings {
  /** Between two pings of every engine. */
  intervalMs: number;
  /** A ping unanswered this long marks the engine down. */
  timeoutMs: number;
  /** With every engine down, how long a container waits for one before the run gives up. */
  allDownWaitMs: number;
}

export const DEFAULT_HEALTH: HealthSettings = { intervalMs: 2_000, timeoutMs: 5_000, allDownWaitMs: 120_000 };

interface Waiter {
  runtime: Runtime;
  /** Its group already holds a slot (and waits on this one): placed past the slots. */
  nested: boolean;
  group: string | null;
  since: number;
  resolve(member: FleetMember): void;
  reject(error: Error): void;
}

/** Checks an engine that answers again before it takes containers: null when fine, else why it is refused. */
export type Readmit = (member: FleetMember) => Promise<string | null>;

export class EngineFleet implements SandboxEngine {
  private readonly queue: Waiter[] = [];
  /** Live sandboxes per group (SandboxLabels.group): a group's second container may go past the slots. */
  private readonly groups = new Map<string, number>();
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  private readonly probes = new Map<FleetMember, Promise<boolean>>();
  private readonly recoveries = new Map<FleetMember, Promise<void>>();
  private readonly timer: NodeJS.Timeout;
  private imageReady: Promise<RuntimeImage> | null = null;
  private baseImage: string | null = null;
  private closed = false;
  private readonly hooks: FleetHooks = {
    verify: (member) => this.verify(member),
    release: (member, labels) => {
      member.running = Math.max(0, member.running - 1);
      this.letGo(labels.group ?? null);
      this.drain();
    },
    lost: (member, labels, reason) => this.emit({ type: "lost", engine: member.name, labels, reason }),
  };

  constructor(
    private readonly members: FleetMember[],
    private readonly health: HealthSettings,
    private readonly readmit: Readmit,
  ) {
    this.timer = setInterval(() => void this.tick(), health.intervalMs);
    this.timer.unref();
  }

  get endpoint(): string {
    return this.members.map((m) => `${m.name} (${m.engine.endpoint})`).join(", ");
  }

  private up(): FleetMember[] {
    return this.members.filter((m) => m.state === "up");
  }

  engines(): EngineStatus[] {
    return this.members.map((m) => m.status());
  }

  watch(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  async info(): Promise<EngineInfo> {
    const infos = (await Promise.all(this.up().map((m) => m.engine.info().catch(() => null)))).filter((i): i is EngineInfo => i !== null);
    if (infos.length === 0) throw new EvolveError("engine_unreachable", `no engine of the fleet answers: ${this.describeDown()}`);
    const runtimes = Runtime.options.filter((r) => infos.every((i) => i.runtimes.includes(r)));
    return {
      endpoint: this.endpoint,
      version: [...new Set(infos.map((i) => i.version))].join(", "),
      apiVersion: [...new Set(infos.map((i) => i.apiVersion))].join(", "),
      runtimes,
      architecture: [...new Set(infos.map((i) => i.architecture))].join(", "),
      cpus: infos.reduce((s, i) => s + i.cpus, 0),
      memoryBytes: infos.reduce((s, i) => s + i.memoryBytes, 0),
    };
  }

  ensureRuntimeImage(options: { baseImage?: string; onProgress?: (message: string) => void } = {}): Promise<RuntimeImage> {
    try {
      this.baseImage = options.baseImage ?? runtimeBaseImage();
    } catch (error) {
      return Promise.reject(error);
    }
    this.imageReady ??= this.provisionAll(options.onProgress).catch((error: unknown) => {
      this.imageReady = null;
      throw error;
    });
    return this.imageReady;
  }

  /** The image on every engine that is up, built from one staged context; an engine that cannot build it is refused. */
  private async provisionAll(onProgress?: (message: string) => void): Promise<RuntimeImage> {
    const source = new RuntimeImageSource(this.baseImage);
    try {
      const members = this.up();
      const results = await Promise.allSettled(members.map((m) => m.engine.provision(source, (message) => onProgress?.(`${m.name}: ${message}`))));
      let first: unknown = null;
      results.forEach((result, i) => {
        if (result.status === "fulfilled") return;
        first ??= result.reason;
        const member = members[i]!;
        void this.verify(member).then((answers) => {
          if (answers) this.refuse(member, `the runtime image could not be built there: ${(result.reason as Error).message}`);
        });
      });
      const built = results.filter((r): r is PromiseFulfilledResult<RuntimeImage> => r.status === "fulfilled");
      if (built.length === 0) throw first ?? new EvolveError("engine_unreachable", `no engine of the fleet answers: ${this.describeDown()}`);
      return { ...built[0]!.value, built: built.some((r) => r.value.built) };
    } finally {
      await source.dispose();
    }
  }

  createSandbox(spec: SandboxSpec): Promise<CreatedSandbox> {
    return this.placed(spec, (member) => member.engine.createSandbox(spec), false);
  }

  startSandbox(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox> {
    return this.placed(spec, (member) => member.engine.startSandbox(spec, options), true);
  }

  /** Places `spec` and makes its sandbox there; an engine that went down meanwhile is left for another. */
  private async placed(spec: SandboxSpec, make: (member: FleetMember) => Promise<CreatedSandbox | RunningSandbox>, running: boolean): Promise<FleetSandbox> {
    for (;;) {
      const member = await this.place(spec.runtime ?? "runc", spec.labels.group ?? null);
      member.placing(spec.labels.session);
      const down = member.whenDown().then((reason): never => {
        throw new EvolveError("engine_lost", `the engine ${member.name} stopped answering (${reason})`);
      });
      down.catch(() => undefined);
      const making = make(member);
      making.catch(() => undefined);
      try {
        const inner = await Promise.race([making, down]);
        this.emit({ type: "placed", engine: member.name, labels: spec.labels });
        return new FleetSandbox(member, spec.labels, inner, running, this.hooks);
      } catch (error) {
        this.hooks.release(member, spec.labels);
        const lostEngine = error instanceof EvolveError && error.code === "engine_lost";
        if (!lostEngine && (await this.verify(member))) throw error;
        // Made after all on an engine given up on (marked down): it goes when that engine answers again.
        void making.then((sandbox) => sandbox.remove(), () => undefined);
      }
    }
  }

  private place(runtime: Runtime, group: string | null): Promise<FleetMember> {
    if (this.closed) return Promise.reject(new EvolveError("interrupted", "the engines were closed"));
    if (!this.members.some((m) => m.state !== "refused" && m.has(runtime))) {
      return Promise.reject(new EvolveError("engine_refused", `no engine of the fleet has the ${runtime} runtime: ${this.describeDown()}`));
    }
    return new Promise((resolve, reject) => {
      const nested = group !== null && (this.groups.get(group) ?? 0) > 0;
      this.queue.push({ runtime, nested, group, since: Date.now(), resolve, reject });
      this.drain();
    });
  }

  /**
   * Hands free slots to the waiters, in order: each to the least-loaded engine that can run it.
   * A nested waiter (its group already holds a slot, and that container waits for this one)
   * does not wait for a free slot, nor behind others: with every slot held by a container
   * that waits on its group, the fleet would otherwise wait on itself.
   */
  private drain(): void {
    for (let i = 0; i < this.queue.length; ) {
      const next = this.queue[i]!;
      const member = this.leastLoaded(next.runtime, next.nested);
      if (member === null) {
        if (!next.nested) i = this.queue.findIndex((w, k) => k > i && w.nested);
        else i++;
        if (i < 0) return;
        continue;
      }
      this.queue.splice(i, 1);
      member.running++;
      if (next.group !== null) this.groups.set(next.group, (this.groups.get(next.group) ?? 0) + 1);
      next.resolve(member);
    }
  }

  private letGo(group: string | null): void {
    if (group === null) return;
    const left = (this.groups.get(group) ?? 1) - 1;
    if (left > 0) this.groups.set(group, left);
    else this.groups.delete(group);
  }

  private leastLoaded(runtime: Runtime, pastSlots: boolean): FleetMember | null {
    let best: FleetMember | null = null;
    for (const m of this.members) {
      if (m.state !== "up" || !m.has(runtime) || (!pastSlots && m.running >= m.slots)) continue;
      if (best === null || m.running / m.slots < best.running / best.slots || (m.running / m.slots === best.running / best.slots && m.running < best.running)) best = m;
    }
    return best;
  }

  /** Pings `member` now (one ping at a time per engine); false, and the engine marked down, when it does not answer. */
  verify(member: FleetMember): Promise<boolean> {
    if (member.state !== "up") return Promise.resolve(false);
    let probe = this.probes.get(member);
    if (probe === undefined) {
      probe = member.engine.ping(this.health.timeoutMs).then(
        () => true,
        (error: unknown) => {
          this.markDown(member, (error as Error).message || String(error));
          return false;
        },
      );
      this.probes.set(member, probe);
      void probe.finally(() => this.probes.delete(member));
    }
    return probe;
  }

  private markDown(member: FleetMember, reason: string): void {
    if (!member.markDown(reason)) return;
    member.engine.resetWarmPool();
    this.emit({ type: "down", engine: member.name, reason });
  }

  private refuse(member: FleetMember, reason: string): void {
    member.refuse(reason);
    member.engine.resetWarmPool();
    this.emit({ type: "down", engine: member.name, reason });
    this.failHopeless();
  }

  /** An engine that answers again: strays swept, checked, image in place; then it takes containers. */
  private recover(member: FleetMember): Promise<void> {
    let recovery = this.recoveries.get(member);
    if (recovery === undefined) {
      recovery = (async () => {
        try {
          await member.engine.ping(this.health.timeoutMs);
        } catch {
          return;
        }
        try {
          for (const session of [...member.straySessions]) {
            await member.engine.sweep({ session });
            member.straySessions.delete(session);
          }
          const refused = await this.readmit(member);
          if (refused !== null) return this.refuse(member, refused);
          if (this.imageReady !== null) {
            const source = new RuntimeImageSource(this.baseImage);
            await member.engine.provision(source).finally(() => source.dispose());
          }
        } catch {
          return; // still not itself: the next tick tries again
        }
        if (member.markUp()) {
          this.emit({ type: "up", engine: member.name });
          this.drain();
        }
      })();
      this.recoveries.set(member, recovery);
      void recovery.finally(() => this.recoveries.delete(member));
    }
    return recovery;
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    await Promise.all(this.members.map((m) => (m.state === "up" ? this.verify(m) : m.state === "down" ? this.recover(m) : null)));
    this.failHopeless();
  }

  /** Waiters no engine will serve: every engine down for too long, or none left with their runtime. */
  private failHopeless(): void {
    const now = Date.now();
    const anyUp = this.members.some((m) => m.state === "up");
    for (const waiter of [...this.queue]) {
      const none = !this.members.some((m) => m.state !== "refused" && m.has(waiter.runtime));
      const tooLong = !anyUp && now - waiter.since > this.health.allDownWaitMs;
      if (!none && !tooLong) continue;
      this.queue.splice(this.queue.indexOf(waiter), 1);
      waiter.reject(
        new EvolveError("engine_unreachable", `no engine can take a container: ${this.describeDown()}`, {
          hint: "check the engines with `evolve doctor --engine ...`; `evolve resume` continues the run when one answers",
        }),
      );
    }
  }

  private describeDown(): string {
    return this.members.map((m) => `${m.name} ${m.state}${m.reason === null ? "" : ` (${m.reason})`}`).join("; ");
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (const waiter of this.queue.splice(0)) waiter.reject(new EvolveError("interrupted", "the engines were closed"));
    await Promise.all(this.up().map((m) => Promise.race([m.engine.close().catch(() => undefined), m.whenDown()])));
  }

  sweep(options: { all?: boolean; session?: string } = {}): Promise<SweepResult> {
    return this.sum((m) => m.engine.sweep(options));
  }

  countManaged(session?: string): Promise<SweepResult> {
    return this.sum((m) => m.engine.countManaged(session));
  }

  /** `count` over every engine that is up; one that goes down meanwhile counts nothing. */
  private async sum(count: (member: FleetMember) => Promise<SweepResult>): Promise<SweepResult> {
    const none: SweepResult = { containers: 0, volumes: 0 };
    const results = await Promise.all(
      this.up().map((m) => Promise.race([count(m).catch(() => none), m.whenDown().then(() => none)])),
    );
    return results.reduce((a, b) => ({ containers: a.containers + b.containers, volumes: a.volumes + b.volumes }), none);
  }
}
