/**
 * The supervision commands' usage errors (exit 2): an unknown run or generation, or one that
 * cannot be decided (it needs no approval, or already has its decision).
 */
import type { ErrorCode } from "../../kernel/index.js";

export const SUPERVISION_USAGE_ERRORS: readonly ErrorCode[] = ["unknown_run", "unknown_generation", "invalid_options"];
