/**
 * The real engine and runtime image for tests, one session per test file: for everything about
 * containers and isolation. Tests of logic use memoryEngine() (memory-engine.ts) instead.
 */
import { execFileSync } from "node:child_process";
import { connectEngines, newSessionId } from "../../sandbox/src/index.js";
import type { RuntimeImage, SandboxEngine } from "../../sandbox/src/index.js";
import type { Runtime } from "../../harness/src/kernel/index.js";

export interface TestEngine {
  engine: SandboxEngine;
  image: RuntimeImage;
  session: string;
  /** Runtimes to run container suites under: runc, plus runsc where the engine has it. */
  runtimes: Runtime[];
}

let cached: Promise<TestEngine> | null = null;

export function testEngine(): Promise<TestEngine> {
  cached ??= (async () => {
    const engine = await connectEngines();
    const image = await engine.ensureRuntimeImage();
    const info = await engine.info();
    return { engine, image, session: newSessionId(), runtimes: info.runtimes };
  })();
  return cached;
}

/**
 * Runtimes to run container suites under, known synchronously (describe.each needs that):
 * runc always, runsc when the engine has it registered. EVOLVE_TEST_RUNTIMES narrows it.
 */
export function runtimesUnderTest(): Runtime[] {
  let registered: string[] = ["runc"];
  try {
    const out = execFileSync("docker", ["info", "--format", "{{json .Runtimes}}"], { encoding: "utf8", timeout: 20_000 });
    registered = Object.keys(JSON.parse(out) as Record<string, unknown>);
  } catch {
    // The global set-up reports an unreachable engine with a better message.
  }
  const wanted = (process.env["EVOLVE_TEST_RUNTIMES"] ?? "runc,runsc").split(",");
  return (["runc", "runsc"] as const).filter((r) => wanted.includes(r) && registered.includes(r));
}
