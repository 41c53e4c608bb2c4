/** An engine that counts the containers started through it: what a ctx.evaluate call cost. */
import type { SandboxEngine } from "../../../../sandbox/src/index.js";

/** `engine`, with a count of the sandboxes created or started through this wrapper; `onStart` sees each new count. */
export function countingEngine(engine: SandboxEngine, onStart: (count: number) => void = () => undefined): { engine: SandboxEngine; started(): number } {
  let started = 0;
  const counted: SandboxEngine = {
    endpoint: engine.endpoint,
    info: () => engine.info(),
    ensureRuntimeImage: (options) => engine.ensureRuntimeImage(options),
    createSandbox: (spec) => {
      onStart(++started);
      return engine.createSandbox(spec);
    },
    startSandbox: (spec, options) => {
      onStart(++started);
      return engine.startSandbox(spec, options);
    },
    // The wrapper owns nothing: closing and sweeping stay the run's business.
    close: async () => undefined,
    sweep: (options) => engine.sweep(options),
    countManaged: (session) => engine.countManaged(session),
    engines: () => engine.engines(),
    watch: (listener) => engine.watch(listener),
  };
  return { engine: counted, started: () => started };
}
