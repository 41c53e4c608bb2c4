/** Rewrite validation: policy, compile, signature (ts-morph) and import (through the sandbox). */
export {
  DEFAULT_IMPORT_TIMEOUT_MS,
  createValidator,
  validateRewrite,
  validateSeed,
} from "./validate.js";
export type { ValidateOptions, ValidateRewriteOptions, ValidationOutcome, Validator } from "./validate.js";
export type { StaticOutcome } from "./static-checks.js";
export { CheckLimits, DEFAULT_CHECK_LIMITS } from "./check-limits.js";
export { DEFAULT_POLICY_CAPS, PolicyCaps } from "./policy-caps.js";
export { REQUIRED_FILES } from "./policy.js";
export { exportProblem, importFailure } from "./import-gate.js";
export { TESTER_FILE, treeHasTester } from "./tester-entry.js";
