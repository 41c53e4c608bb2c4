/** What every step of a run shares: wired once per process in start-run.ts / resume.ts. */
import type { ImproveRequest } from "@evolve/contract";
import type { RuntimeImage, SandboxEngine, SandboxLabels } from "../../../../sandbox/src/index.js";
import { EvolveError, type Runtime } from "../../kernel/index.js";
import type { ArchiveWriter, RunEconomy } from "../../archive/index.js";
import type { Task } from "../../evaluation/index.js";
import { createGenerationBroker, type BudgetLedger, type BudgetLimits, type LlmBroker, type LlmPort, type LlmSetup } from "../../llm/index.js";
import type { RunPolicy } from "../../supervision/index.js";
import type { Validator } from "../../validation/index.js";
import type { BuildCache } from "./build-cache.js";
import type { EngineLedger } from "./engine-ledger.js";

/** Container-side settings of a run. */
export interface SandboxSettings {
  engine: SandboxEngine;
  image: RuntimeImage;
  /** This process's session label: the start-up sweep of a later process tells it is dead. */
  session: string;
  runtime: Runtime;
  improveTimeoutMs: number;
  importTimeoutMs: number;
}

/**
 * The task agent's model at solve time, for a task whose manifest says needsModel: budgeted
 * apart from the meta agent's (its own run ledger and per-generation limits).
 */
export interface SolveLlmSettings {
  runLedger: BudgetLedger;
  generationLimits: BudgetLimits;
  /** Serves the task agent's calls from elsewhere (replay: the solve transcript); the setup's endpoint when absent. */
  port?: LlmPort | null;
}

/** LLM settings of a run: the setup, the shared run ledger, per-generation limits. */
export interface LlmSettings {
  setup: LlmSetup;
  runLedger: BudgetLedger;
  generationLimits: BudgetLimits;
  /** Serves calls from elsewhere (replay); the setup's endpoint when absent. */
  port?: LlmPort | null;
  /** What the run's model probe found, told to every meta agent as ImproveRequest.llm; absent when the run was not probed. */
  probed?: NonNullable<ImproveRequest["llm"]>;
  /** Absent: the task agent never gets a model (as for every task that does not need one). */
  solve?: SolveLlmSettings;
}

/** Everything a generation step needs; nothing in it is mutated by a step except through `writer`. */
export interface RunContext {
  runId: string;
  sandbox: SandboxSettings;
  llm: LlmSettings;
  task: Task;
  validator: Validator;
  builds: BuildCache;
  /** Which engine ran each phase of each generation, and which lost an engine under it. */
  engines: EngineLedger;
  /** Temp folder of this process for work trees (outside the archive). */
  workRoot: string;
  /** The fixed evaluation seed: every generation is scored on the same instances and games. */
  evaluationSeed: number;
  /** The run seed, from which each generation's self-modification seed is derived. */
  runSeed: number;
  /** Set on Ctrl-C: steps stop at the next phase boundary and record nothing. */
  signal: AbortSignal;
  /** Calls of ctx.evaluate each generation's meta agent may make. */
  evaluations: number;
  /** Snapshot hash → harness deaths while its checks ran (from the event log, at resume). */
  checkDeaths: ReadonlyMap<string, number>;
  /** The run policy from run.json (protected paths, approval rules); null: none. */
  policy: RunPolicy | null;
  /** How the run spends compute (attempts shown, barren discount, racing, held-out rule), from run.json. */
  economy: RunEconomy;
}

/**
 * The labels of a container that works for one generation. Its group is the generation: a
 * meta agent's container waits for its ctx.evaluate drafts' containers, so a fleet lets
 * those past its slots (SandboxLabels.group).
 */
export function containerLabels(ctx: Pick<RunContext, "runId" | "sandbox">, generationId: string, phase?: string): SandboxLabels {
  return { session: ctx.sandbox.session, run: ctx.runId, generation: generationId, group: `${ctx.runId}/${generationId}`, ...(phase === undefined ? {} : { phase }) };
}

/** What a candidate needs of the run (the pipeline, a test generation, a ctx.evaluate draft): no archive, no ledger, no run seed. */
export type CandidateContext = Pick<RunContext, "sandbox" | "llm" | "task" | "runId" | "validator" | "evaluationSeed" | "evaluations" | "workRoot" | "signal" | "policy" | "builds" | "checkDeaths">;

/** A broker for one generation's LLM calls: its own limits, charged to the run's ledger; retries wait no later than `deadline`. */
export function generationBroker(ctx: Pick<RunContext, "llm">, deadline?: number): LlmBroker {
  return createGenerationBroker({
    setup: ctx.llm.setup,
    runLedger: ctx.llm.runLedger,
    generationLimits: ctx.llm.generationLimits,
    ...(deadline === undefined ? {} : { deadline }),
    ...(ctx.llm.port === undefined ? {} : { port: ctx.llm.port }),
  });
}

/** How a run's loop ended: its N children attempted, Ctrl-C, the LLM budget spent, or no parent left to select. */
export type LoopEnd = "finished" | "interrupted" | "budget_spent" | "no_valid_parent";

/** Thrown inside a step when the run was interrupted; the child is then not recorded. */
export class StepInterrupted extends EvolveError {
  constructor() {
    super("interrupted", "the run was interrupted; this step records nothing");
    this.name = "StepInterrupted";
  }
}

/** Throws StepInterrupted when the run was interrupted. */
export function checkInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw new StepInterrupted();
}
