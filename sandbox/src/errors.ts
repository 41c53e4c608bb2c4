/**
 * The one base error of the project. "The harness failed" is an EvolveError; "the agent
 * misbehaved" is never an error but data (an invalid generation, a zero score).
 * It lives in the lowest layer so sandbox and harness share it; harness re-exports it.
 */
export type ErrorCode =
  | "engine_unreachable"
  | "engine_failed"
  /** A TLS problem with a remote engine: a certificate refused, missing or not trusted. */
  | "engine_tls"
  /** An engine that cannot serve this run (another CPU architecture, a runtime it lacks). */
  | "engine_refused"
  /** An engine stopped answering under a container: its work is redone elsewhere. */
  | "engine_lost"
  | "image_build_failed"
  | "invalid_task"
  | "invalid_agent"
  | "invalid_options"
  | "archive_corrupt"
  /** The archive folder cannot be written: read-only, not a folder, full, or not ours. */
  | "archive_unwritable"
  | "unknown_run"
  | "unknown_generation"
  | "interrupted"
  | "internal";

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
