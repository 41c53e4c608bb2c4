/** Public types of the sandbox: what callers see; no dockerode types leak out. */

import type { Runtime } from "../../harness/src/kernel/index.js";

export type { Runtime };

/** Resource limits of one container; every field has a default (DEFAULT_LIMITS). */
export interface SandboxLimits {
  memoryBytes: number;
  /** CPU quota in units of 1e-9 CPUs (Docker's NanoCpus). */
  nanoCpus: number;
  pidsLimit: number;
  tmpfsBytes: number;
  /** Cap of the json-file log driver (Docker keeps it on the host). */
  logBytes: number;
}

/** Labels put on every container and volume so dead sessions can be swept. */
export interface SandboxLabels {
  /** One id per harness process: the sweep at start-up removes other, dead sessions. */
  session: string;
  run?: string;
  generation?: string;
  phase?: string;
}

export interface SandboxSpec {
  image: string;
  command: string[];
  labels: SandboxLabels;
  runtime?: Runtime;
  limits?: Partial<SandboxLimits>;
}

export interface ContainerRunOptions {
  /** Wall clock from start; at expiry the container is killed with SIGKILL. */
  timeoutMs: number;
  stdoutCapBytes: number;
  stderrCapBytes: number;
  /** Called for each complete stdout line (without the newline), until the cap. */
  onStdoutLine?: (line: string) => void;
}

/** How a container's one process ended: a value, never an exception. */
export interface RunOutcome {
  exitCode: number | null;
  timedOut: boolean;
  oomKilled: boolean;
  /** Killed by the host before it ended by itself (timeout, or kill() called). */
  killed: boolean;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** Capped stderr, decoded as UTF-8. */
  stderr: string;
  durationMs: number;
}

/** Caps for taking a directory out of a container; defaults in DEFAULT_EXTRACT_CAPS. */
export interface ExtractCaps {
  maxEntries: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export type ExtractResult =
  | { ok: true; files: number; bytes: number }
  | { ok: false; reason: string };

/** What an engine says of itself (docker version and info). */
export interface EngineInfo {
  endpoint: string;
  version: string;
  apiVersion: string;
  runtimes: Runtime[];
  /** As Docker reports it: x86_64, aarch64, ... */
  architecture: string;
  cpus: number;
  memoryBytes: number;
}

export interface SweepResult {
  containers: number;
  volumes: number;
}
