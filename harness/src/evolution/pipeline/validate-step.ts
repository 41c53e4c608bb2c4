/** Phase 4 of a generation: the four validation gates (the seed skips the non-empty-diff rule). */
import type { ValidationFailure, ValidationTimings } from "../../results/index.js";
import { containerLabels, type RunContext } from "../context/index.js";

export interface ValidateStepInput {
  ctx: Pick<RunContext, "sandbox" | "validator" | "runId" | "policy">;
  generationId: string;
  /** The parent's snapshot, or null for generation 0. */
  parentDir: string | null;
  childDir: string;
  /** Empty or absent folder that receives the emitted JS when the gates pass. */
  buildDir: string;
  /** The containers' phase label, for the record's engines line (default "validate"; a ctx.evaluate draft's is "draft-validate"). */
  phase?: string;
  /** A test generation of an arena run: tester/index.ts must be there and export propose. */
  requireTester?: boolean;
  /** The import gate is left to the candidate's first evaluation session (evaluate-step.ts). */
  deferImport?: boolean;
}

export interface ValidateStepResult {
  failure: ValidationFailure | null;
  timings: ValidationTimings;
  /** Passed policy, compile and signature; the import gate is still to come (`deferImport`). */
  importDeferred: boolean;
}

/** Policy → compile → signature → import; a failure is data. */
export async function validateStep(input: ValidateStepInput): Promise<ValidateStepResult> {
  const { sandbox } = input.ctx;
  const common = {
    childDir: input.childDir,
    buildDir: input.buildDir,
    engine: sandbox.engine,
    image: sandbox.image,
    labels: containerLabels(input.ctx, input.generationId, input.phase ?? "validate"),
    runtime: sandbox.runtime,
    ...(sandbox.importTimeoutMs === undefined ? {} : { importTimeoutMs: sandbox.importTimeoutMs }),
    protectedPaths: input.ctx.policy?.protectedPaths ?? [],
    requireTester: input.requireTester ?? false,
    ...(input.deferImport === true ? { deferImport: true } : {}),
  };
  const outcome =
    input.parentDir === null
      ? await input.ctx.validator.validateSeed(common)
      : await input.ctx.validator.validateRewrite({ ...common, parentDir: input.parentDir });
  return outcome.ok ? { failure: null, timings: outcome.timings, importDeferred: outcome.importDeferred === true } : { failure: outcome.failure, timings: outcome.timings, importDeferred: false };
}
