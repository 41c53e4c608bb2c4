/**
 * A sandbox on one engine of a fleet. It holds its engine's slot until removed, and it never
 * waits on an engine that stopped answering: every call races the engine going down. A
 * sandbox whose engine failed under it is "lost" (its process's end is unknown, a call
 * failed and the engine does not answer, or the engine went down while it ran): the fleet
 * reports it, so the harness redoes the work rather than blame the agent.
 */
import { EvolveError } from "../../../harness/src/kernel/index.js";
import type { FleetMember } from "./fleet-member.js";
import type { CreatedSandbox, RunningSandbox } from "../port/index.js";
import type { ContainerRunOptions, ExtractCaps, ExtractResult, RunOutcome, SandboxLabels } from "../port/index.js";

/** What a sandbox needs of its fleet. */
export interface FleetHooks {
  /** Pings the engine now; false (and the engine marked down) when it does not answer. */
  verify(member: FleetMember): Promise<boolean>;
  /** Gives the slot back (the labels say whose it was). */
  release(member: FleetMember, labels: SandboxLabels): void;
  lost(member: FleetMember, labels: SandboxLabels, reason: string): void;
}

export class FleetSandbox implements CreatedSandbox, RunningSandbox {
  private running: RunningSandbox | null = null;
  private outcome: Promise<RunOutcome> | null = null;
  private isLost = false;
  private removed = false;
  private readonly down: Promise<string>;
  private readonly startedAt = Date.now();

  constructor(
    private readonly member: FleetMember,
    private readonly labels: SandboxLabels,
    private readonly inner: CreatedSandbox | RunningSandbox,
    running: boolean,
    private readonly hooks: FleetHooks,
  ) {
    this.down = member.whenDown();
    if (running) this.becomeRunning(inner as RunningSandbox);
  }

  get id(): string {
    return this.inner.id;
  }

  get finished(): Promise<RunOutcome> {
    if (this.outcome === null) throw new Error("the sandbox has not started");
    return this.outcome;
  }

  async start(options: ContainerRunOptions): Promise<RunningSandbox> {
    if (this.running !== null) throw new Error("the sandbox has started already");
    this.becomeRunning(await this.guard((this.inner as CreatedSandbox).start(options)));
    return this;
  }

  private becomeRunning(running: RunningSandbox): void {
    this.running = running;
    const ended = running.finished.then((outcome) => ({ outcome, lostBecause: outcome.exitCode === null ? `${this.member.name} could not say how the process ended` : null }));
    const dropped = this.down.then((reason) => ({ outcome: this.droppedOutcome(reason), lostBecause: `${this.member.name} stopped answering (${reason})` }));
    this.outcome = Promise.race([ended, dropped]).then(({ outcome, lostBecause }) => {
      if (lostBecause !== null && !this.removed) this.markLost(lostBecause);
      return outcome;
    });
  }

  private droppedOutcome(reason: string): RunOutcome {
    return {
      exitCode: null,
      timedOut: false,
      oomKilled: false,
      killed: true,
      stdoutTruncated: false,
      stderrTruncated: false,
      stderr: `the engine ${this.member.name} stopped answering: ${reason}`,
      durationMs: Date.now() - this.startedAt,
    };
  }

  putDirectory(hostDir: string, containerDir: string): Promise<void> {
    return this.guard(this.live().putDirectory(hostDir, containerDir));
  }

  async takeDirectory(containerDir: string, hostDir: string, caps?: Partial<ExtractCaps>): Promise<ExtractResult> {
    const result = await this.guard(this.live().takeDirectory(containerDir, hostDir, caps));
    // A refusal is the agent's doing only if the engine still answers.
    if (!result.ok && !(await this.hooks.verify(this.member))) this.markLost(`${this.member.name} stopped answering while the workspace was taken out`);
    return result;
  }

  flushed(token: string, timeoutMs: number): Promise<RunOutcome | null> {
    return this.live().flushed(token, timeoutMs);
  }

  send(message: unknown): void {
    this.live().send(message);
  }

  closeStdin(): void {
    this.live().closeStdin();
  }

  async pause(): Promise<void> {
    await this.guard(this.live().pause()).catch((error: unknown) => {
      if (!(error instanceof EvolveError && error.code === "engine_lost")) throw error;
    });
  }

  async kill(): Promise<void> {
    await Promise.race([this.live().kill().catch(() => undefined), this.down]);
  }

  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    const removal = this.inner.remove();
    if (this.member.state !== "up" || this.isLost) {
      // Lost, or its engine does not answer: the slot comes back now. Not waited on: were the
      // engine down, the container goes when it answers again (a down engine's sessions are strays).
      void removal.catch(() => undefined);
    } else {
      await Promise.race([removal, this.down]);
    }
    this.hooks.release(this.member, this.labels);
  }

  private live(): RunningSandbox {
    if (this.running === null) throw new Error("the sandbox has not started");
    return this.running;
  }

  private markLost(reason: string): void {
    if (this.isLost) return;
    this.isLost = true;
    this.hooks.lost(this.member, this.labels, reason);
  }

  /** `work`, unless the engine goes down first or fails it and then does not answer: then engine_lost. */
  private async guard<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    const dropped = this.down.then((reason): never => {
      throw new EvolveError("engine_lost", `the engine ${this.member.name} stopped answering (${reason})`);
    });
    dropped.catch(() => undefined);
    try {
      return await Promise.race([work, dropped]);
    } catch (error) {
      if (error instanceof EvolveError && error.code === "engine_lost") {
        this.markLost(error.message);
        throw error;
      }
      if (await this.hooks.verify(this.member)) throw error;
      const message = `the engine ${this.member.name} failed a call and stopped answering: ${(error as Error).message}`;
      this.markLost(message);
      throw new EvolveError("engine_lost", message, { cause: error });
    }
  }
}
