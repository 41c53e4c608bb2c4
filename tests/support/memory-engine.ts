/**
 * The in-memory engine (sandbox/src/memory/) for tests of logic that is not about
 * containers: loop, selection, arena, approval, archive. It isolates nothing, so it runs only
 * the project's own agents and fixtures; anything about containers or isolation uses
 * testEngine() (test-engine.ts) instead. One engine and session per test file, like testEngine().
 */
import { newSessionId } from "../../sandbox/src/index.js";
import { InMemoryEngine } from "../../sandbox/src/memory/index.js";
import type { TestEngine } from "./test-engine.js";

let cached: Promise<TestEngine> | null = null;

export function memoryEngine(): Promise<TestEngine> {
  cached ??= (async () => {
    const engine = new InMemoryEngine();
    const image = await engine.ensureRuntimeImage();
    const info = await engine.info();
    return { engine, image, session: newSessionId(), runtimes: info.runtimes };
  })();
  return cached;
}
