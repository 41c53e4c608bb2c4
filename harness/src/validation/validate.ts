/**
 * The validation pipeline: policy → compile → signature → import, stopping at the first
 * failure. A failure is data (the agent misbehaved); an EvolveError means the harness
 * failed. Validation never executes agent code on the host: gates 0–2 only read and compile
 * it, gate 3 runs the emitted JS in a container.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { ValidationFailure, ValidationTimings } from "../contract/results.js";
import {
  EvolveError,
  type Runtime,
  type RuntimeImage,
  type SandboxEngine,
  type SandboxLabels,
  connectEngine,
  newSessionId,
} from "../../../sandbox/src/index.js";
import { checkImportGate } from "./import-gate.js";
import { checkPolicy } from "./policy.js";
import { DEFAULT_POLICY_CAPS, PolicyCaps } from "./policy-caps.js";
import { type EmittedFile, TreeCompiler } from "./tree-compiler.js";

/** Default wall clock of the import check's container. */
export const DEFAULT_IMPORT_TIMEOUT_MS = 10_000;

/** What to validate and where the import check runs. */
export interface ValidateOptions {
  /** The agent tree to validate (a host folder; never executed here). */
  childDir: string;
  /** Empty or absent host folder that receives the emitted JS when gates 0–2 pass. */
  buildDir: string;
  /** Engine for the import gate; connected on first use when absent. */
  engine?: SandboxEngine;
  /** Runtime image; `engine.ensureRuntimeImage()` when absent. */
  image?: string | RuntimeImage;
  /** Container labels; a fresh session with phase "validate" when absent. */
  labels?: SandboxLabels;
  runtime?: Runtime;
  importTimeoutMs?: number;
  caps?: Partial<PolicyCaps>;
}

/** A rewrite is validated against its parent: an unchanged tree is an empty diff. */
export interface ValidateRewriteOptions extends ValidateOptions {
  parentDir: string;
}

export type ValidationOutcome =
  | { ok: true; timings: ValidationTimings }
  | { ok: false; failure: ValidationFailure; timings: ValidationTimings };

/** Gates 0–2 only: what runs on the host. */
export type StaticOutcome = ValidationOutcome;

/** A validator keeps the compiler (parsed lib files, toolchain types) warm between candidates. */
export interface Validator {
  /** All four gates for a child tree against its parent. */
  validateRewrite(options: ValidateRewriteOptions): Promise<ValidationOutcome>;
  /** All four gates for the seed, which has no parent (no diff rule). */
  validateSeed(options: ValidateOptions): Promise<ValidationOutcome>;
  /** Gates 0–2 (policy, compile, signature); fills buildDir when they pass. */
  validateStatic(options: ValidateOptions & { parentDir: string | null }): Promise<StaticOutcome>;
}

const TimeoutMs = z.number().int().positive();

/** A validator with its own warm compiler; pass one `compiler` to share it further. */
export function createValidator(shared: { compiler?: TreeCompiler } = {}): Validator {
  let compiler = shared.compiler;
  let engine: Promise<SandboxEngine> | undefined;
  let session: string | undefined;

  const validateStatic = async (options: ValidateOptions & { parentDir: string | null }): Promise<StaticOutcome> => {
    const caps = PolicyCaps.parse({ ...DEFAULT_POLICY_CAPS, ...options.caps });
    await assertEmptyBuildDir(options.buildDir);
    const timings: ValidationTimings = {};
    const policyStarted = performance.now();
    const policy = await checkPolicy(options.childDir, options.parentDir, caps);
    timings.policy = performance.now() - policyStarted;
    if (!policy.ok) return { ok: false, failure: policy.failure, timings };
    compiler ??= new TreeCompiler();
    const check = compiler.check(options.childDir, policy.files.map((f) => f.path));
    timings.compile = check.compileMs;
    if (check.signatureMs !== undefined) timings.signature = check.signatureMs;
    if (!check.ok) return { ok: false, failure: check.failure, timings };
    const writeStarted = performance.now();
    await writeBuild(options.buildDir, check.files);
    timings.compile += performance.now() - writeStarted;
    return { ok: true, timings };
  };

  const validate = async (options: ValidateOptions, parentDir: string | null): Promise<ValidationOutcome> => {
    const importTimeoutMs = TimeoutMs.parse(options.importTimeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS);
    const statics = await validateStatic({ ...options, parentDir });
    if (!statics.ok) return statics;
    const timings = statics.timings;
    const importStarted = performance.now();
    const sandboxEngine = options.engine ?? (await (engine ??= connectEngine()));
    const image = options.image ?? (await sandboxEngine.ensureRuntimeImage());
    const labels = options.labels ?? { session: (session ??= newSessionId()), phase: "validate" };
    const failure = await checkImportGate(options.buildDir, {
      engine: sandboxEngine,
      image,
      labels,
      timeoutMs: importTimeoutMs,
      ...(options.runtime === undefined ? {} : { runtime: options.runtime }),
    });
    timings.import = performance.now() - importStarted;
    return failure === null ? { ok: true, timings } : { ok: false, failure, timings };
  };

  return {
    validateRewrite: (options) => validate(options, options.parentDir),
    validateSeed: (options) => validate(options, null),
    validateStatic,
  };
}

/** One-off validation of a rewrite (a cold compiler: prefer a shared `createValidator()`). */
export function validateRewrite(options: ValidateRewriteOptions): Promise<ValidationOutcome> {
  return createValidator().validateRewrite(options);
}

/** One-off validation of the seed, which has no parent. */
export function validateSeed(options: ValidateOptions): Promise<ValidationOutcome> {
  return createValidator().validateSeed(options);
}

async function assertEmptyBuildDir(buildDir: string): Promise<void> {
  const entries = await readdir(buildDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw new EvolveError("invalid_options", `cannot read build dir ${buildDir}`, { cause: error });
  });
  if (entries.length > 0) {
    throw new EvolveError("invalid_options", `build dir ${buildDir} is not empty`, { hint: "Give each candidate a fresh build folder." });
  }
}

async function writeBuild(buildDir: string, files: readonly EmittedFile[]): Promise<void> {
  await mkdir(buildDir, { recursive: true });
  await writeFile(join(buildDir, "package.json"), '{ "type": "module" }\n');
  for (const file of files) {
    const target = join(buildDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.text);
  }
}
