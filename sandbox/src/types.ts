/** Public types of the sandbox: what callers see; no dockerode types leak out. */

export type Runtime = "runc" | "runsc";

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

export interface EngineInfo {
  endpoint: string;
  version: string;
  apiVersion: string;
  runtimes: Runtime[];
}

/** A container that exists but has not started. */
export interface CreatedSandbox {
  readonly id: string;
  /** Start its one process with stdio attached; the timeout clock starts now. */
  start(options: ContainerRunOptions): Promise<RunningSandbox>;
  remove(): Promise<void>;
}

/**
 * A container whose process runs. The workspace is a tmpfs volume, which lives only while
 * the container does, so files go in and come out while it is running (or paused).
 */
export interface RunningSandbox {
  readonly id: string;
  /** Copy a host directory's tree to `containerDir` (under /work), owned by the sandbox user. */
  putDirectory(hostDir: string, containerDir: string): Promise<void>;
  /** Take `containerDir` out through the safe extractor into a new `hostDir`. */
  takeDirectory(containerDir: string, hostDir: string, caps?: Partial<ExtractCaps>): Promise<ExtractResult>;
  /** Write one line (the JSON encoding of `message`) to the process's stdin. */
  send(message: unknown): void;
  closeStdin(): void;
  /** Freeze every process (cgroup freezer), e.g. to take files out after a timeout. */
  pause(): Promise<void>;
  /** SIGKILL now; the outcome says killed. */
  kill(): Promise<void>;
  /** Resolves when the process has ended and its outcome is known. */
  readonly finished: Promise<RunOutcome>;
  /** Kill if needed, then remove the container and its volume. Never throws. */
  remove(): Promise<void>;
}

export interface SweepResult {
  containers: number;
  volumes: number;
}
