/**
 * Gates 0–2 of one candidate (policy, compile, signature) and the build they emit. This runs
 * inside the check worker (check-worker.ts), never on the harness's main thread: it is the
 * part of validation that computes on agent-controlled data without a container around it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ValidationFailure, ValidationTimings } from "../results/index.js";
import { EvolveError } from "../kernel/index.js";
import { checkPolicy } from "./policy.js";
import { PolicyCaps } from "./policy-caps.js";
import type { EmittedFile, TreeCompiler } from "./tree-compiler.js";

/** One candidate's static checks: the tree, its parent (null: the seed, no diff rule), the build folder. */
export interface StaticRequest {
  childDir: string;
  parentDir: string | null;
  /** Empty or absent host folder that receives the emitted JS when gates 0–2 pass. */
  buildDir: string;
  caps: PolicyCaps;
  /** The run policy's protected paths (globs): a child that changes one fails the policy gate. */
  protectedPaths: readonly string[];
  /** The tree must have tester/index.ts (a test generation); absent: only checked when present. */
  requireTester?: boolean;
}

export type StaticOutcome =
  | { ok: true; timings: ValidationTimings }
  | { ok: false; failure: ValidationFailure; timings: ValidationTimings };

/** The gate in progress, so a limit that stops the checks can say where they were. */
export type StaticPhase = "policy" | "compile" | "signature";

/** Runs the three gates with `compiler`; calls `onPhase` as each starts. */
export async function runStaticChecks(compiler: TreeCompiler, request: StaticRequest, onPhase: (phase: StaticPhase) => void = () => undefined): Promise<StaticOutcome> {
  const caps = PolicyCaps.parse(request.caps);
  await assertEmptyBuildDir(request.buildDir);
  const timings: ValidationTimings = {};
  onPhase("policy");
  const policyStarted = performance.now();
  const policy = await checkPolicy(request.childDir, request.parentDir, caps, request.protectedPaths, request.requireTester ?? false);
  timings.policy = performance.now() - policyStarted;
  if (!policy.ok) return { ok: false, failure: policy.failure, timings };
  onPhase("compile");
  const check = compiler.check(request.childDir, policy.files.map((f) => f.path), () => onPhase("signature"));
  timings.compile = check.compileMs;
  if (check.signatureMs !== undefined) timings.signature = check.signatureMs;
  if (!check.ok) return { ok: false, failure: check.failure, timings };
  const writeStarted = performance.now();
  writeBuild(request.buildDir, check.files);
  timings.compile += performance.now() - writeStarted;
  return { ok: true, timings };
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

/** Synchronous, as the policy's walk is: a build is a few dozen small files, written in the check worker. */
function writeBuild(buildDir: string, files: readonly EmittedFile[]): void {
  mkdirSync(buildDir, { recursive: true });
  writeFileSync(join(buildDir, "package.json"), '{ "type": "module" }\n');
  for (const file of files) {
    const target = join(buildDir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.text);
  }
}
