/**
 * The one base error of the project. "The harness failed" is an EvolveError; "the agent
 * misbehaved" is never an error but data (an invalid generation, a zero score). Its codes
 * say which layer raises them: the sandbox raises only its own and the common ones (the
 * dependency test in tests/architecture checks every `new EvolveError` in sandbox/).
 */
import { z } from "zod";

/** What the sandbox raises: engines and the runtime image. */
export const SandboxErrorCode = z.enum([
  "engine_unreachable",
  "engine_failed",
  /** A TLS problem with a remote engine: a certificate refused, missing or not trusted. */
  "engine_tls",
  /** An engine that cannot serve this run (another CPU architecture, a runtime it lacks). */
  "engine_refused",
  /** An engine stopped answering under a container: its work is redone elsewhere. */
  "engine_lost",
  "image_build_failed",
]);
export type SandboxErrorCode = z.infer<typeof SandboxErrorCode>;

/** What the harness raises: tasks, agent trees, the archive. */
export const HarnessErrorCode = z.enum([
  "invalid_task",
  "invalid_agent",
  "archive_corrupt",
  /** The archive folder cannot be written (read-only, not a folder, full, no permission). */
  "archive_unwritable",
  "unknown_run",
  "unknown_generation",
]);
export type HarnessErrorCode = z.infer<typeof HarnessErrorCode>;

/** What either raises: a bad option or setting, Ctrl-C, a bug. */
export const CommonErrorCode = z.enum(["invalid_options", "interrupted", "internal"]);
export type CommonErrorCode = z.infer<typeof CommonErrorCode>;

export const ErrorCode = z.enum([...SandboxErrorCode.options, ...HarnessErrorCode.options, ...CommonErrorCode.options]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export class EvolveError extends Error {
  readonly code: ErrorCode;
  /** What the user can do about it, in one sentence. */
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "EvolveError";
    this.code = code;
    this.hint = options.hint;
  }
}

/** For exhaustive switches: a compile error when a case is missing. */
export function assertNever(value: never, what = "value"): never {
  throw new EvolveError("internal", `unexpected ${what}: ${JSON.stringify(value)}`);
}
