/**
 * One engine of a fleet: its state (up, down, refused), its slots and the containers this
 * process runs on it. Going down resolves the promise every sandbox on it races against, so
 * nothing waits on an engine that stopped answering.
 */
import type { DockerEngine } from "../docker/index.js";
import type { EngineStatus } from "../port/index.js";
import type { EngineInfo, Runtime, SandboxLimits } from "../port/index.js";

/** The most containers one engine is given at once, whatever it reports. */
export const MAX_SLOTS = 64;

/** Memory kept back from containers on every engine: for the engine itself and its page cache. */
const MEMORY_RESERVE = 0.1;

/**
 * Containers an engine takes at once by default: as many as its CPUs and its memory hold at
 * the per-container limits (at least one).
 */
export function defaultSlots(info: Pick<EngineInfo, "cpus" | "memoryBytes">, limits: Pick<SandboxLimits, "nanoCpus" | "memoryBytes">): number {
  const byCpu = Math.floor((info.cpus * 1e9) / limits.nanoCpus);
  const byMemory = Math.floor((info.memoryBytes * (1 - MEMORY_RESERVE)) / limits.memoryBytes);
  return Math.max(1, Math.min(MAX_SLOTS, byCpu, byMemory));
}

export interface MemberInit {
  state: EngineStatus["state"];
  reason: string | null;
  info: EngineInfo | null;
  /** Given by the user; else computed from `info` when the engine is first seen. */
  slots: number | null;
}

export class FleetMember {
  state: EngineStatus["state"];
  reason: string | null;
  info: EngineInfo | null;
  /** Containers placed here and not yet removed. */
  running = 0;
  /**
   * Sessions whose containers were lost here: swept before the engine takes new ones. When it
   * goes down, every session that placed containers here is one: besides what ran, its warm
   * pool held containers nothing else knows of, and a container being removed may not be gone.
   */
  readonly straySessions = new Set<string>();
  private readonly sessions = new Set<string>();
  private slotsGiven: number | null;
  private down: { promise: Promise<string>; resolve: (reason: string) => void };

  constructor(
    readonly engine: DockerEngine,
    init: MemberInit,
    private readonly limits: Pick<SandboxLimits, "nanoCpus" | "memoryBytes">,
  ) {
    this.state = init.state;
    this.reason = init.reason;
    this.info = init.info;
    this.slotsGiven = init.slots;
    this.down = downSignal();
  }

  get name(): string {
    return this.engine.name;
  }

  /** Its slots: the user's number, else from its CPUs and memory (1 until it was seen). */
  get slots(): number {
    if (this.slotsGiven !== null) return this.slotsGiven;
    return this.info === null ? 1 : defaultSlots(this.info, this.limits);
  }

  /** Whether it can run `runtime` (unknown until it was seen: assumed). */
  has(runtime: Runtime): boolean {
    return this.info === null || this.info.runtimes.includes(runtime);
  }

  /** Resolves with the reason when this engine goes down (for the period it is up now). */
  whenDown(): Promise<string> {
    return this.down.promise;
  }

  /** A container of `session` is about to be made here. */
  placing(session: string): void {
    this.sessions.add(session);
  }

  /** True when it was up and is down now. */
  markDown(reason: string): boolean {
    if (this.state !== "up") return false;
    for (const session of this.sessions) this.straySessions.add(session);
    this.state = "down";
    this.reason = reason;
    this.down.resolve(reason);
    return true;
  }

  /** True when it was down and is up now. */
  markUp(): boolean {
    if (this.state !== "down") return false;
    this.state = "up";
    this.reason = null;
    this.down = downSignal();
    return true;
  }

  refuse(reason: string): void {
    if (this.state === "up") this.down.resolve(reason);
    this.state = "refused";
    this.reason = reason;
  }

  status(): EngineStatus {
    const image = this.engine.engines()[0]?.image ?? null;
    return { name: this.name, endpoint: this.engine.endpoint, state: this.state, reason: this.reason, info: this.info, slots: this.slots, running: this.running, image };
  }
}

function downSignal(): { promise: Promise<string>; resolve: (reason: string) => void } {
  let resolve!: (reason: string) => void;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
}
