/** Options of `evolve run` (one zod schema, parsed once at the boundary) and their defaults. */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { z } from "zod";
import { GenerationId, LEGACY_ECONOMY, MAX_ATTEMPTS, type RunEconomy } from "../../archive/index.js";
import { PACKAGE_ROOT, Runtime } from "../../kernel/index.js";
import { SelectionStrategyName, DEFAULT_SELECTION_STRATEGY } from "../../selection/index.js";
// The file, not the folder index: that would load ts-morph and dockerode for `evolve run --help`.
import { CheckLimits, DEFAULT_CHECK_LIMITS } from "../../validation/check-limits.js";

/**
 * Archive root when --out is not given: generations/ in the folder evolve runs in (the
 * checkout for `npm start`), never inside an installed package.
 */
export const DEFAULT_ARCHIVE_ROOT = resolve("generations");
/** The seed agent tree copied into generation 0 when --agent is not given. */
export const DEFAULT_AGENT_DIR = resolve(PACKAGE_ROOT, "seed-agent");
/** Folder of the built-in tasks: `--task NAME` means tasks/NAME. */
export const BUILTIN_TASKS_DIR = resolve(PACKAGE_ROOT, "tasks");
/**
 * The default task and budget: email-validation is fast to evaluate (~2 s) and its seed
 * leaves rule switches off, so a short offline run shows a real improvement (see README).
 */
export const DEFAULT_TASK = "email-validation";
export const DEFAULT_GENERATIONS = 24;
export const DEFAULT_SEED = 1;
export const DEFAULT_IMPROVE_TIMEOUT_MS = 180_000;
/**
 * Containers kept created-and-started per kind (self-modify, import gate, evaluation) during
 * `evolve run` and `resume`, unless EVOLVE_WARM_POOL says otherwise (0: none). Each is
 * still used once; starting them ahead takes ~0.9 s off a generation (bench/RESULTS.md).
 */
export const DEFAULT_WARM_POOL = 2;
/** Calls of ctx.evaluate per generation when --evaluations is not given. */
export const DEFAULT_EVALUATIONS = 3;
/** The most --evaluations accepts: each call costs containers and minutes. */
export const MAX_EVALUATIONS = 50;

const PositiveInt = z.number().int().positive();

/** Attempts shown in each improve request when --attempts is not given (ImproveRequest.attempts). */
export const DEFAULT_ATTEMPTS = 12;
/** The racing rule of a run with --racing on (the default): confidence 95 % over a child's whole race. */
export const DEFAULT_RACE = { delta: 0.05, bound: "hoeffding-serfling" } as const;
/** With racing, the held-out split is scored for children among this many best whole visible scores. */
export const HELDOUT_TOP = 5;

/** The economy recorded in run.json for these options (an arena run: the staged one it was built on). */
export function economyFor(options: { attempts: number; racing: boolean; discountBarren: boolean; arena: unknown }): RunEconomy {
  if (options.arena !== null) return LEGACY_ECONOMY;
  return {
    attempts: options.attempts,
    discountBarren: options.discountBarren,
    racing: options.racing ? { ...DEFAULT_RACE } : null,
    heldout: options.racing ? { kind: "top", k: HELDOUT_TOP } : { kind: "every_valid" },
  };
}

/** Arena defaults: a duel of six rounds, sixteen tests in force at most. */
export const DEFAULT_ARENA_ROUNDS = 6;
export const DEFAULT_SUITE_CAP = 16;

/** `--arena` and its shape; the mode follows from the population sizes (both 1: a duel). */
export const ArenaOptions = z.strictObject({
  rounds: PositiveInt.max(10_000).default(DEFAULT_ARENA_ROUNDS),
  codePopulation: PositiveInt.max(32).default(1),
  testPopulation: PositiveInt.max(32).default(1),
  tournamentEvery: PositiveInt.max(1_000).default(1),
  suiteCap: PositiveInt.max(500).default(DEFAULT_SUITE_CAP),
});
export type ArenaOptions = z.infer<typeof ArenaOptions>;

export const RunOptions = z.object({
  /** A built-in task name or a task folder; default: DEFAULT_TASK, or the origin run's task with --from. */
  task: z.string().min(1).optional(),
  /** Children to attempt (generation 0, the seed, comes on top). */
  generations: z.number().int().nonnegative().max(100_000).default(DEFAULT_GENERATIONS),
  /** Run-wide LLM budgets; null: unlimited. */
  budgetTokens: PositiveInt.nullable().default(null),
  budgetUsd: z.number().positive().finite().nullable().default(null),
  /** Per-generation LLM token budget; null: only the run budget applies. */
  generationTokens: PositiveInt.nullable().default(null),
  /** The task agent's own LLM tokens (a task that needs a model), for the run and per generation; null: unlimited. */
  solveBudgetTokens: PositiveInt.nullable().default(null),
  solveGenerationTokens: PositiveInt.nullable().default(null),
  workers: PositiveInt.max(64).default(() => Math.max(1, availableParallelism())),
  selection: SelectionStrategyName.default(DEFAULT_SELECTION_STRATEGY),
  model: z.string().min(1).max(200).nullable().default(null),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(DEFAULT_SEED),
  out: z.string().min(1).default(DEFAULT_ARCHIVE_ROOT),
  runtime: Runtime.default("runc"),
  agent: z.string().min(1).default(DEFAULT_AGENT_DIR),
  /** "RUN/GEN": branch from that generation's snapshot. */
  from: z
    .string()
    .refine((v) => v.includes("/") && GenerationId.safeParse(v.slice(v.lastIndexOf("/") + 1)).success, "expected RUN/GEN, e.g. run-20250101-120000-ab12/g0007")
    .nullable()
    .default(null),
  /** Wall clock of one self-modification container. */
  improveTimeoutMs: PositiveInt.default(DEFAULT_IMPROVE_TIMEOUT_MS),
  importTimeoutMs: PositiveInt.optional(),
  /** Heap cap of the check worker (policy, compile, signature), MiB. */
  checkMemoryMb: CheckLimits.shape.memoryMb.default(DEFAULT_CHECK_LIMITS.memoryMb),
  /** Wall clock of one candidate's policy, compile and signature checks. */
  checkTimeoutMs: CheckLimits.shape.timeoutMs.default(DEFAULT_CHECK_LIMITS.timeoutMs),
  /** A run policy file (JSON: protected paths, approval rules); null: none, every valid child is a parent. */
  policy: z.string().min(1).nullable().default(null),
  /** Calls of ctx.evaluate one generation's meta agent may make (0: none). */
  evaluations: z.number().int().nonnegative().max(MAX_EVALUATIONS).default(DEFAULT_EVALUATIONS),
  /** Attempts near the parent each improve request lists (0: none). */
  attempts: z.number().int().nonnegative().max(MAX_ATTEMPTS).default(DEFAULT_ATTEMPTS),
  /** Race each child's visible split against its parent (held-out then for the top HELDOUT_TOP); false: staged, held-out for every valid child. */
  racing: z.boolean().default(true),
  /** Strategies that count children also discount a parent by its barren (invalid or duplicate) children. */
  discountBarren: z.boolean().default(true),
  /** An arena run (rounds of test and code generations); null: an ordinary run. */
  arena: ArenaOptions.nullable().default(null),
  /** Run id (folder name); generated when absent. */
  runId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/).optional(),
});
export type RunOptions = z.infer<typeof RunOptions>;

/**
 * Workers when --workers is not given: on a fleet, one per slot of the engines that are up
 * (so every engine is kept busy); on one engine, the default (the number of cores).
 */
export function workersFor(engines: readonly { state: string; slots: number | null }[], fallback: number): number {
  if (engines.some((e) => e.slots === null)) return fallback;
  const slots = engines.filter((e) => e.state === "up").reduce((sum, e) => sum + (e.slots ?? 0), 0);
  return Math.min(64, Math.max(1, slots));
}

/** The built-in task folder for a name, or the path itself when it is not a plain name. */
export function taskDirFor(task: string): string {
  return /^[a-z0-9-]+$/.test(task) ? resolve(BUILTIN_TASKS_DIR, task) : resolve(task);
}

/** A sortable, unique-enough run id: run-YYYYMMDD-HHMMSS-xxxx. */
export function newRunId(now = new Date(), random = Math.random): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const suffix = Math.floor(random() * 0x10000).toString(16).padStart(4, "0");
  return `run-${stamp}-${suffix}`;
}
