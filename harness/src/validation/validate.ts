/**
 * The validation pipeline: policy → compile → signature → import, stopping at the first
 * failure. A failure is data (the agent misbehaved); an EvolveError means the harness
 * failed. Validation never executes agent code on the host: gates 0–2 only read and compile
 * it, in a check worker with a memory cap and a wall clock (bounded-checker.ts); gate 3
 * runs the emitted JS in a container.
 */
import { z } from "zod";
import type { ValidationFailure, ValidationTimings } from "../results/index.js";
import { type RuntimeImage, type SandboxEngine, type SandboxLabels } from "../../../sandbox/src/index.js";
import { type Runtime } from "../kernel/index.js";
import { BoundedChecker } from "./bounded-checker.js";
import { CheckLimits, DEFAULT_CHECK_LIMITS } from "./check-limits.js";
import { checkImportGate } from "./import-gate.js";
import { DEFAULT_POLICY_CAPS, PolicyCaps } from "./policy-caps.js";
import type { StaticOutcome } from "./static-checks.js";

/** Default wall clock of the import check's container. */
export const DEFAULT_IMPORT_TIMEOUT_MS = 10_000;

/** What gates 0–2 check: a tree on the host, never executed. */
export interface StaticCheckOptions {
  /** The agent tree to validate (a host folder; never executed here). */
  childDir: string;
  /** Empty or absent host folder that receives the emitted JS when gates 0–2 pass. */
  buildDir: string;
  caps?: Partial<PolicyCaps>;
  /** The run policy's protected paths (globs); none when absent. Only a rewrite can break them. */
  protectedPaths?: readonly string[];
  /**
   * The tree must have tester/index.ts exporting `propose: ProposeFn` (a test generation of an
   * arena run). Without it the tester entry is checked only when the tree has one.
   */
  requireTester?: boolean;
}

/** What to validate and where the import check runs. */
export interface ValidateOptions extends StaticCheckOptions {
  /** Engine for the import gate (the caller's: the harness connects in one place). */
  engine: SandboxEngine;
  /** Runtime image; `engine.ensureRuntimeImage()` when absent. */
  image?: RuntimeImage;
  /** Container labels: the caller's session, so its sweeps find them. */
  labels: SandboxLabels;
  runtime?: Runtime;
  importTimeoutMs?: number;
  /**
   * Gate 3 runs in the candidate's first evaluation session instead of a container of its
   * own (the session loads the whole agent first: `importFailure` judges what it reported).
   * The outcome is then ok after gates 0–2, with `importDeferred`.
   */
  deferImport?: boolean;
}

/** A rewrite is validated against its parent: an unchanged tree is an empty diff. */
export interface ValidateRewriteOptions extends ValidateOptions {
  parentDir: string;
}

export type ValidationOutcome =
  | { ok: true; timings: ValidationTimings; importDeferred?: true }
  | { ok: false; failure: ValidationFailure; timings: ValidationTimings };

/** A validator keeps the compiler (parsed lib files, toolchain types) warm between candidates, in its check worker. */
export interface Validator {
  /** All four gates for a child tree against its parent. */
  validateRewrite(options: ValidateRewriteOptions): Promise<ValidationOutcome>;
  /** All four gates for the seed, which has no parent (no diff rule). */
  validateSeed(options: ValidateOptions): Promise<ValidationOutcome>;
  /** Gates 0–2 (policy, compile, signature); fills buildDir when they pass. */
  validateStatic(options: StaticCheckOptions & { parentDir: string | null }): Promise<StaticOutcome>;
  /** The limits of gates 0–2 (memory of the check worker, wall clock per candidate). */
  readonly limits: CheckLimits;
  /** Starts the check worker now, so its warm-up overlaps other work. */
  warm(): void;
  /** Stops the check worker (waits for a check in progress; `now`: fails it instead). */
  close(options?: { now?: boolean }): Promise<void>;
}

const TimeoutMs = z.number().int().positive();

/** A validator with its own check worker, under `limits` (defaults: DEFAULT_CHECK_LIMITS). */
export function createValidator(options: { limits?: Partial<CheckLimits> } = {}): Validator {
  const checker = new BoundedChecker(CheckLimits.parse({ ...DEFAULT_CHECK_LIMITS, ...options.limits }));

  const validateStatic = (options: StaticCheckOptions & { parentDir: string | null }): Promise<StaticOutcome> => {
    const caps = PolicyCaps.parse({ ...DEFAULT_POLICY_CAPS, ...options.caps });
    return checker.check({
      childDir: options.childDir,
      parentDir: options.parentDir,
      buildDir: options.buildDir,
      caps,
      protectedPaths: options.protectedPaths ?? [],
      requireTester: options.requireTester ?? false,
    });
  };

  const validate = async (options: ValidateOptions, parentDir: string | null): Promise<ValidationOutcome> => {
    const importTimeoutMs = TimeoutMs.parse(options.importTimeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS);
    const statics = await validateStatic({ ...options, parentDir });
    if (!statics.ok) return statics;
    const timings = statics.timings;
    if (options.deferImport === true) return { ok: true, timings, importDeferred: true };
    const importStarted = performance.now();
    const image = options.image ?? (await options.engine.ensureRuntimeImage());
    const failure = await checkImportGate(options.buildDir, {
      engine: options.engine,
      image,
      labels: options.labels,
      timeoutMs: importTimeoutMs,
      requireTester: options.requireTester ?? false,
      ...(options.runtime === undefined ? {} : { runtime: options.runtime }),
    });
    timings.import = performance.now() - importStarted;
    return failure === null ? { ok: true, timings } : { ok: false, failure, timings };
  };

  return {
    validateRewrite: (options) => validate(options, options.parentDir),
    validateSeed: (options) => validate(options, null),
    validateStatic,
    limits: checker.limits,
    warm: () => checker.warm(),
    close: (options) => checker.close(options),
  };
}

/** One-off validation of a rewrite (a cold worker: prefer a shared `createValidator()`). */
export async function validateRewrite(options: ValidateRewriteOptions): Promise<ValidationOutcome> {
  const validator = createValidator();
  return validator.validateRewrite(options).finally(() => validator.close());
}

/** One-off validation of the seed, which has no parent. */
export async function validateSeed(options: ValidateOptions): Promise<ValidationOutcome> {
  const validator = createValidator();
  return validator.validateSeed(options).finally(() => validator.close());
}
