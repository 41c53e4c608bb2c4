/** Rewrite validation: policy, compile, signature (ts-morph) and import (through the sandbox). */
export {
  DEFAULT_IMPORT_TIMEOUT_MS,
  createValidator,
  validateRewrite,
  validateSeed,
} from "./validate.js";
export type { StaticOutcome, ValidateOptions, ValidateRewriteOptions, ValidationOutcome, Validator } from "./validate.js";
export { TreeCompiler } from "./tree-compiler.js";
export { DEFAULT_POLICY_CAPS, PolicyCaps } from "./policy-caps.js";
export { REQUIRED_FILES } from "./policy.js";
export { ALLOWED_NODE_BUILTINS, CONTRACT_MODULE, TOOLCHAIN_PACKAGES } from "./compiler-options.js";
