/**
 * A SandboxEngine decorator for the benchmarks: it delegates every call to the real engine
 * (warm pool included) and notes, per sandbox, when it was asked for, handed out, told to
 * init, reported ready and its result, when its removal began and how long it took. The loop
 * is measured from the outside: no harness code changes, isolation intact.
 */
import type { RunningSandbox, SandboxEngine } from "../../sandbox/src/index.js";
import type { ContainerRunOptions, SandboxLabels, SandboxSpec } from "../../sandbox/src/port/sandbox-port.js";

/** What one sandbox did, in performance.now() milliseconds (null: did not happen). */
export interface SandboxTrace {
  labels: SandboxLabels;
  requestedAt: number;
  /** startSandbox resolved: created and started, or handed out by the warm pool. */
  startedAt: number | null;
  initAt: number | null;
  /** First "ready" line: the runner loaded the agent module. */
  readyAt: number | null;
  /** First "result" line: in improve mode, `improve` returned. */
  resultAt: number | null;
  /** First remove() call: for improve, the end of taking the workspace out. */
  removeStartedAt: number | null;
  removeMs: number;
  /** Released once its stderr was flushed (sessions/runner-channel.ts): its removal ran in the background, off the caller's path. */
  released: boolean;
  endedAt: number | null;
}

/** The decorated engine and the traces it collects. */
export interface TimingEngine {
  engine: SandboxEngine;
  traces: SandboxTrace[];
}

// Only the message type is needed, so the (possibly large) line is not parsed.
const TYPE = /^\{"type":"([a-z-]+)"/;

/** Wraps `inner`; `inner` stays owned by the caller (close it there). */
export function timingEngine(inner: SandboxEngine): TimingEngine {
  const traces: SandboxTrace[] = [];
  const engine: SandboxEngine = {
    get endpoint() {
      return inner.endpoint;
    },
    info: () => inner.info(),
    ensureRuntimeImage: (options) => inner.ensureRuntimeImage(options),
    createSandbox: (spec) => inner.createSandbox(spec),
    close: () => inner.close(),
    sweep: (options) => inner.sweep(options),
    countManaged: (session) => inner.countManaged(session),
    engines: () => inner.engines(),
    watch: (listener) => inner.watch(listener),
    async startSandbox(spec: SandboxSpec, options: ContainerRunOptions): Promise<RunningSandbox> {
      const trace: SandboxTrace = {
        labels: { ...spec.labels },
        requestedAt: performance.now(),
        startedAt: null,
        initAt: null,
        readyAt: null,
        resultAt: null,
        removeStartedAt: null,
        removeMs: 0,
        released: false,
        endedAt: null,
      };
      traces.push(trace);
      const onLine = options.onStdoutLine;
      const sandbox = await inner.startSandbox(spec, {
        ...options,
        onStdoutLine: (line) => {
          const type = TYPE.exec(line)?.[1];
          if (type === "ready" && trace.readyAt === null) trace.readyAt = performance.now();
          if (type === "result" && trace.resultAt === null) trace.resultAt = performance.now();
          onLine?.(line);
        },
      });
      trace.startedAt = performance.now();
      void sandbox.finished.then(() => (trace.endedAt = performance.now()));
      return {
        get id() {
          return sandbox.id;
        },
        get finished() {
          return sandbox.finished;
        },
        putDirectory: (hostDir, containerDir) => sandbox.putDirectory(hostDir, containerDir),
        takeDirectory: (containerDir, hostDir, caps) => sandbox.takeDirectory(containerDir, hostDir, caps),
        send(message) {
          if (trace.initAt === null && (message as { type?: unknown }).type === "init") trace.initAt = performance.now();
          sandbox.send(message);
        },
        closeStdin: () => sandbox.closeStdin(),
        async flushed(token, timeoutMs) {
          const outcome = await sandbox.flushed(token, timeoutMs);
          if (outcome !== null) trace.released = true;
          return outcome;
        },
        pause: () => sandbox.pause(),
        kill: () => sandbox.kill(),
        async remove() {
          const t = performance.now();
          trace.removeStartedAt ??= t;
          try {
            await sandbox.remove();
          } finally {
            trace.removeMs += performance.now() - t;
          }
        },
      };
    },
  };
  return { engine, traces };
}
