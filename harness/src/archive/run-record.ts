/** run.json: the configuration and state of one run, rewritten atomically as it changes. */
import { z } from "zod";
import { ModelProbe, Runtime } from "../kernel/index.js";
import { RngState } from "../selection/index.js";
import { SelectionStrategyName } from "../selection/index.js";
import { RunPolicy } from "../supervision/index.js";
import { GenerationId, RunId, Timestamp } from "./generation-id.js";
import { upgradeRunRecord } from "./migrate-run-record.js";
import { RunEconomy } from "./run-economy.js";

/**
 * 2: run.json's limits are a strict, complete set (version 1 let any numeric key through).
 * 3: the limits gain `evaluations` (ctx.evaluate calls per generation).
 * 4: the config may carry `arena` (an arena run); an older harness must not resume one as a plain run.
 */
export const RUN_SCHEMA_VERSION = 4;

export const RunStatus = z.enum(["running", "finished", "interrupted"]);
export type RunStatus = z.infer<typeof RunStatus>;

const PositiveInt = z.number().int().positive();

/**
 * The budgets and limits a run was started with: the one source for the run, every resume
 * and every replay. Each key is required and an unknown (say, misspelt) key is an error:
 * a missing budget must never read as "unlimited". Null means unlimited for the budgets only.
 */
export const RunLimits = z.strictObject({
  /** LLM tokens for the whole run; null: unlimited. */
  budgetTokens: PositiveInt.nullable(),
  /** Dollars for the whole run; null: unlimited. */
  budgetUsd: z.number().positive().finite().nullable(),
  /** LLM tokens per generation; null: only the run budget applies. */
  generationTokens: PositiveInt.nullable(),
  /** Wall clock of one self-modification container. */
  improveTimeoutMs: PositiveInt,
  /** Wall clock of the import check's container. */
  importTimeoutMs: PositiveInt,
  /** Heap cap (MiB) of the worker that runs a candidate's policy, compile and signature checks. */
  checkMemoryMb: PositiveInt,
  /** Wall clock of one candidate's policy, compile and signature checks. */
  checkTimeoutMs: PositiveInt,
  /** Calls of ctx.evaluate one generation's meta agent may make (0: none). */
  evaluations: z.number().int().nonnegative(),
  /**
   * The task agent's own LLM tokens (a task that needs a model): for the whole run, and per
   * generation (its evaluations and its drafts'), apart from the meta agent's budgets above.
   * Optional, unlike the rest: absent means none was set (unlimited). Runs recorded before
   * these keys existed could make no solve-time call (no task agent had a model then).
   */
  solveBudgetTokens: PositiveInt.nullable().optional(),
  solveGenerationTokens: PositiveInt.nullable().optional(),
});
export type RunLimits = z.infer<typeof RunLimits>;

/**
 * An arena run's shape. Each round: `testPopulation` test generations propose tests, then
 * `codePopulation` code children are made; every `tournamentEvery` rounds each population
 * keeps its best (the worst are replaced by the winners' children). A duel is 1, 1, 1.
 */
export const ArenaSettings = z.strictObject({
  mode: z.enum(["duel", "population"]),
  rounds: z.number().int().positive().max(10_000),
  codePopulation: z.number().int().positive().max(32),
  testPopulation: z.number().int().positive().max(32),
  tournamentEvery: z.number().int().positive().max(1_000),
  /** The most tests in force at once; the least discriminating retire first. */
  suiteCap: z.number().int().positive().max(500),
});
export type ArenaSettings = z.infer<typeof ArenaSettings>;

export const RunConfig = z.object({
  task: z.object({ name: z.string().min(1), dir: z.string().min(1) }),
  /** The agent tree generation 0 was copied from. */
  agentDir: z.string().min(1),
  /** How many generations (children) the run is asked to attempt. */
  generations: z.number().int().nonnegative(),
  workers: z.number().int().positive(),
  selection: SelectionStrategyName,
  seed: z.number().int(),
  /** The LLM model, or null for the offline strategy. */
  model: z.string().nullable(),
  runtime: Runtime,
  limits: RunLimits,
  /** Present in an arena run (`evolve run --arena`): code and test generations alternate in rounds. */
  arena: ArenaSettings.optional(),
  /** How the run spends compute (attempts, barren discount, racing, held-out rule); absent: as before it existed (run-economy.ts). */
  economy: RunEconomy.optional(),
});
export type RunConfig = z.infer<typeof RunConfig>;

/** Where a branched run (`evolve run --from`) started. */
export const RunOrigin = z.object({
  run: RunId,
  generation: GenerationId,
  /** The chain from that run's seed to `generation`, root first. */
  lineage: z.array(GenerationId),
});
export type RunOrigin = z.infer<typeof RunOrigin>;

const RunRecordShape = z.object({
  schemaVersion: z.literal(RUN_SCHEMA_VERSION),
  id: RunId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  config: RunConfig,
  harnessVersion: z.string().min(1),
  from: RunOrigin.optional(),
  /** `--policy`: protected paths and approval rules; absent: none (every valid child is a parent). */
  policy: RunPolicy.optional(),
  /**
   * The model probe made when the run started (an LLM run whose endpoint is the environment's):
   * how the endpoint answers, the mode every meta agent of the run is told (ImproveRequest.llm),
   * and its cost, which counts against the run budget. Absent otherwise, and in older runs.
   */
  llmProbe: ModelProbe.optional(),
  status: RunStatus,
  /** The selection RNG after the last selection; null before the first. */
  rng: RngState.nullable(),
});

/** run.json as read: a version-1 or -2 record is upgraded first (migrate-run-record.ts). */
export const RunRecord = z.preprocess(upgradeRunRecord, RunRecordShape);
export type RunRecord = z.output<typeof RunRecordShape>;
