/** run.json: the configuration and state of one run, rewritten atomically as it changes. */
import { z } from "zod";
import { RngState } from "../selection/rng.js";
import { SelectionStrategyName } from "../selection/strategies.js";
import { GenerationId, RunId, Timestamp } from "./generation-id.js";

export const RUN_SCHEMA_VERSION = 1;

export const RunStatus = z.enum(["running", "finished", "interrupted"]);
export type RunStatus = z.infer<typeof RunStatus>;

/** Container limits and budgets; sandbox fields are typed, further numeric limits allowed. */
export const RunLimits = z
  .object({
    memoryBytes: z.number().positive(),
    nanoCpus: z.number().positive(),
    pidsLimit: z.number().int().positive(),
    tmpfsBytes: z.number().positive(),
    logBytes: z.number().positive(),
    /** Heap cap (MiB) of the worker that runs a candidate's policy, compile and signature checks. */
    checkMemoryMb: z.number().int().positive(),
    /** Wall clock (ms) of one candidate's policy, compile and signature checks. */
    checkTimeoutMs: z.number().int().positive(),
  })
  .partial()
  .catchall(z.number().nullable());
export type RunLimits = z.infer<typeof RunLimits>;

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
  runtime: z.enum(["runc", "runsc"]),
  limits: RunLimits,
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

export const RunRecord = z.object({
  schemaVersion: z.literal(RUN_SCHEMA_VERSION),
  id: RunId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  config: RunConfig,
  harnessVersion: z.string().min(1),
  from: RunOrigin.optional(),
  status: RunStatus,
  /** The selection RNG after the last selection; null before the first. */
  rng: RngState.nullable(),
});
export type RunRecord = z.infer<typeof RunRecord>;
