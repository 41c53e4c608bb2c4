/**
 * The one place a RunContext is built from run.json, for `evolve run`, `resume` and
 * `replay` alike: every budget and limit comes from the record's strict `limits`, and the
 * run policy from its `policy`, so the three can never read a run differently.
 */
import { join } from "node:path";
import type { RuntimeImage, SandboxEngine } from "../../../../sandbox/src/index.js";
import { economyOf, type RunRecord } from "../../archive/index.js";
import type { Task } from "../../evaluation/index.js";
import { BudgetLedger, type LlmPort, type LlmSetup } from "../../llm/index.js";
import type { CheckLimits, Validator } from "../../validation/index.js";
import { createBuildCache } from "./build-cache.js";
import { EngineLedger } from "./engine-ledger.js";
import type { RunContext } from "./run-context.js";

/** What a context needs besides the record: the live parts of this process. */
export interface RunContextParts {
  engine: SandboxEngine;
  image: RuntimeImage;
  /** This process's container session label. */
  session: string;
  task: Task;
  validator: Validator;
  /** Temp folder of this process for work trees and builds. */
  workRoot: string;
  llm: {
    setup: LlmSetup;
    /** Serves calls from elsewhere (replay, tests); the setup's endpoint when absent. */
    port?: LlmPort | null;
    /** Spent before this process (resume, replay): the run ledger starts from it. */
    spent?: { tokens: number; usd: number };
    /** The task agent's solve-time spend before this process: its ledger starts from it. */
    solveSpent?: { tokens: number; usd: number };
  };
  signal: AbortSignal;
  checkDeaths?: ReadonlyMap<string, number>;
}

/** The check worker's limits recorded in run.json. */
export function checkLimitsOf(run: RunRecord): CheckLimits {
  return { memoryMb: run.config.limits.checkMemoryMb, timeoutMs: run.config.limits.checkTimeoutMs };
}

/** The context of `run` in this process. */
export function runContextOf(run: RunRecord, parts: RunContextParts): RunContext {
  const limits = run.config.limits;
  return {
    runId: run.id,
    sandbox: {
      engine: parts.engine,
      image: parts.image,
      session: parts.session,
      runtime: run.config.runtime,
      improveTimeoutMs: limits.improveTimeoutMs,
      importTimeoutMs: limits.importTimeoutMs,
    },
    llm: {
      setup: parts.llm.setup,
      runLedger: new BudgetLedger("run", { tokens: limits.budgetTokens, usd: limits.budgetUsd }, parts.llm.spent),
      generationLimits: { tokens: limits.generationTokens, usd: null },
      ...(parts.llm.port === undefined ? {} : { port: parts.llm.port }),
      // From run.json, so a resumed or replayed generation is told what the first process was.
      ...(run.llmProbe === undefined || run.llmProbe.skipped !== null ? {} : { probed: { model: run.llmProbe.model, mode: run.llmProbe.mode, reason: run.llmProbe.reason } }),
      solve: {
        runLedger: new BudgetLedger("run's solve-time", { tokens: limits.solveBudgetTokens ?? null, usd: null }, parts.llm.solveSpent),
        generationLimits: { tokens: limits.solveGenerationTokens ?? null, usd: null },
      },
    },
    task: parts.task,
    validator: parts.validator,
    builds: createBuildCache(join(parts.workRoot, "builds"), parts.validator),
    engines: new EngineLedger(parts.engine, run.id),
    workRoot: parts.workRoot,
    evaluationSeed: run.config.seed,
    runSeed: run.config.seed,
    signal: parts.signal,
    evaluations: limits.evaluations,
    checkDeaths: parts.checkDeaths ?? new Map(),
    // An archive written before run policies existed has none: every valid child is a parent.
    policy: run.policy ?? null,
    economy: economyOf(run.config),
  };
}
