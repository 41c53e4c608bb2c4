/**
 * Which engine ran each phase of each generation of this run, and which generations had an
 * engine fail under them, from the sandbox port's events. A child whose engine was lost is
 * not recorded: whatever its container "said" (an unknown exit, a refused workspace) was the
 * engine's failure, not the agent's, so the loop redoes it (redo-lost.ts).
 */
import { type EngineEvent, type SandboxEngine } from "../../../../sandbox/src/index.js";
import { EvolveError } from "../../kernel/index.js";
import type { EnginePlacements } from "../../archive/index.js";

/** Thrown before a child is recorded when an engine was lost under one of its containers. */
export class EngineLost extends EvolveError {
  constructor(
    readonly generation: string,
    readonly reasons: readonly string[],
  ) {
    super("engine_lost", `${generation}: ${reasons.join("; ")}`, { hint: "the child is redone on another engine" });
    this.name = "EngineLost";
  }
}

export class EngineLedger {
  private readonly placements = new Map<string, Map<string, string[]>>();
  private readonly lost = new Map<string, string[]>();
  private readonly unwatch: () => void;
  /** False on one engine alone: records then carry no placements (every phase ran on it). */
  readonly recording: boolean;

  constructor(
    engine: SandboxEngine,
    private readonly runId: string,
  ) {
    this.recording = engine.engines().some((e) => e.slots !== null);
    this.unwatch = engine.watch((event) => this.take(event));
  }

  private take(event: EngineEvent): void {
    if (event.type !== "placed" && event.type !== "lost") return;
    const { run, generation, phase } = event.labels;
    if (run !== this.runId || generation === undefined) return;
    if (event.type === "lost") {
      this.lost.set(generation, [...(this.lost.get(generation) ?? []), `${phase ?? "a container"} on ${event.engine}: ${event.reason}`]);
      return;
    }
    const phases = this.placements.get(generation) ?? new Map<string, string[]>();
    this.placements.set(generation, phases);
    const key = phase ?? "other";
    const engines = phases.get(key) ?? [];
    if (!engines.includes(event.engine)) phases.set(key, [...engines, event.engine]);
  }

  /**
   * The engines of `generation` by phase, for its record (undefined on one engine alone, or
   * when no container ran); throws EngineLost when an engine was lost under it (and keeps
   * that for `takeLost`). Forgets it.
   */
  settle(generation: string): EnginePlacements | undefined {
    const lost = this.lost.get(generation);
    if (lost !== undefined) throw new EngineLost(generation, lost);
    const phases = this.placements.get(generation);
    this.forget(generation);
    if (!this.recording || phases === undefined || phases.size === 0) return undefined;
    return Object.fromEntries(phases);
  }

  /** Why `generation` lost an engine (empty when it did not); forgets it, for a fresh attempt. */
  takeLost(generation: string): string[] {
    const lost = this.lost.get(generation) ?? [];
    this.forget(generation);
    return lost;
  }

  private forget(generation: string): void {
    this.lost.delete(generation);
    this.placements.delete(generation);
  }

  close(): void {
    this.unwatch();
  }
}
