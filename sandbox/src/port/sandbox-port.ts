/**
 * The sandbox port: what the harness asks of wherever containers run. One Docker engine
 * (docker-engine.ts) and a fleet of several (engine-fleet.ts) both implement it; the harness
 * never knows which. A created and a running sandbox are different types: a created one has
 * no stdio and no files, a running one cannot be started again. The values that cross the
 * port (what a sandbox is asked for, how it ended, what an engine is) are at the end.
 */
import type { Runtime } from "../../../harness/src/kernel/index.js";

export type { Runtime };

export interface RuntimeImage {
  tag: string;
  /** The command that starts the trusted runner in this image. */
  command: string[];
  built: boolean;
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
  /**
   * For a runner told to write `token` to stderr as it ends: once the token has come through,
   * the outcome as far as it is known without waiting for the engine to take the container down
   * (the stderr before the token, whole; the caps' flags; no exit code). Null when the process
   * ended first or `timeoutMs` passed.
   */
  flushed(token: string, timeoutMs: number): Promise<RunOutcome | null>;
  /** Kill if needed, then remove the container and its volume. Never throws. */
  remove(): Promise<void>;
}

/** One engine behind the port, as it stands now. */
export interface EngineStatus {
  /** Its label, context name or host: what progress lines and records call it. */
  name: string;
  endpoint: string;
  /** up: takes containers; down: stopped answering (retried); refused: never used by this process. */
  state: "up" | "down" | "refused";
  /** Why it is down or refused; null when up. */
  reason: string | null;
  info: EngineInfo | null;
  /** Containers it runs at once; null: no limit of its own (one engine: the run's workers bound it). */
  slots: number | null;
  /** Containers this process runs on it now. */
  running: number;
  /** The runtime image there: built by this process, found already, or not known yet. */
  image: "built" | "found" | null;
}

/** What happened to containers and engines behind the port, as it happens. */
export type EngineEvent =
  /** A container of `labels` went to `engine`. */
  | { type: "placed"; engine: string; labels: SandboxLabels }
  /** A container of `labels` was lost with its engine: whatever it did is not to be trusted as done. */
  | { type: "lost"; engine: string; labels: SandboxLabels; reason: string }
  | { type: "down"; engine: string; reason: string }
  | { type: "up"; engine: string };

export interface SandboxEngine {
  /** Where containers go: one engine's address, or a fleet's engines. */
  readonly endpoint: string;
  /** The engine's own report; for a fleet, what every engine that is up has in common. */
  info(): Promise<EngineInfo>;
  /** Find or build the runtime image on every engine (never pulls unless the user named a base image). */
  ensureRuntimeImage(options?: { baseImage?: string; onProgress?: (message: string) => void }): Promise<RuntimeImage>;
  createSandbox(spec: SandboxSpec): Promise<CreatedSandbox>;
  /** Create and start in one step; from the warm pool when the engine keeps one. */
  startSandbox(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox>;
  /** Remove the warm pool's idle sandboxes and stop watching engines (call before exit). */
  close(): Promise<void>;
  /** Remove labelled containers and volumes on every engine that answers: of dead sessions, or all with `all`. */
  sweep(options?: { all?: boolean; session?: string }): Promise<SweepResult>;
  /** Count labelled containers and volumes (of one session, or all) on every engine that answers. */
  countManaged(session?: string): Promise<SweepResult>;
  /** Every engine behind the port, with its state and load. */
  engines(): EngineStatus[];
  /** Placement and health events from now on; returns the function that stops them. */
  watch(listener: (event: EngineEvent) => void): () => void;
}

// ---- values that cross the port ------------------------------------------------------

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
  /** Free-form labels for people and sweeps (docker ps shows them); the sandbox gives them no meaning. */
  run?: string;
  generation?: string;
  phase?: string;
  /**
   * Containers that wait on one another (a container whose process waits for the others of
   * its group to finish): a fleet places a group's second container past the engines' slots
   * rather than queue it behind its own first one.
   */
  group?: string;
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
