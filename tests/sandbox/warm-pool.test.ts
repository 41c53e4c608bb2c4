/** The warm pool: faster hand-outs, one use per sandbox, nothing left after close. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkImports, connectEngines, LOCAL_ENGINE, newSessionId, openSolveSession } from "../../sandbox/src/index.js";
import type { RuntimeImage, SandboxEngine } from "../../sandbox/src/index.js";
import { writeJsBuild } from "../support/js-build.js";

let engine: SandboxEngine;
let image: RuntimeImage;
const session = newSessionId();

beforeAll(async () => {
  engine = await connectEngines(LOCAL_ENGINE, { warmPool: 1 });
  image = await engine.ensureRuntimeImage();
});
afterAll(async () => {
  await engine.close();
});

describe("warm pool", () => {
  it("hands out working sandboxes, each used once, and removes them all on close", async () => {
    const buildDir = await writeJsBuild({ task: `let calls = 0; export async function solve() { return ++calls; }\n` });
    const labels = { session, run: "pool-test" };
    for (let i = 0; i < 3; i++) {
      expect(await checkImports({ engine, image, labels, buildDir, timeoutMs: 15_000 })).toMatchObject({ ok: true });
    }
    // A sandbox that served one caller never serves another: module state starts fresh.
    for (let i = 0; i < 2; i++) {
      const solve = await openSolveSession({ engine, image, labels, buildDir, timeoutMs: 15_000, task: "t", seed: 1, llmAvailable: false });
      expect(await solve.call(null, { timeoutMs: 5_000 })).toMatchObject({ ok: true, value: 1 });
      await solve.close();
    }
    const warm = await engine.countManaged(session);
    expect(warm.containers).toBeGreaterThanOrEqual(1);
    await engine.close();
    expect(await engine.countManaged(session)).toEqual({ containers: 0, volumes: 0 });
  });

  it("starts a pooled sandbox's clock when it is handed out, not when it was made", async () => {
    const pooled = await connectEngines(LOCAL_ENGINE, { warmPool: 1 });
    const labels = { session, run: "pool-clock" };
    const buildDir = await writeJsBuild({});
    await checkImports({ engine: pooled, image, labels, buildDir, timeoutMs: 15_000 }); // fills the pool
    // Wait until the pool holds its sandbox, then let it age past the next call's time limit.
    for (let waited = 0; (await pooled.countManaged(session)).containers < 1; waited += 100) {
      if (waited > 20_000) throw new Error("the pool never refilled");
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await pooled.countManaged(session)).containers).toBe(1);
    const result = await checkImports({ engine: pooled, image, labels, buildDir, timeoutMs: 2_000 });
    await pooled.close();
    expect(result).toMatchObject({ ok: true });
    expect(await pooled.countManaged(session)).toEqual({ containers: 0, volumes: 0 });
  });

  it("keeps more of a kind ready when callers wait for ones still being made, and never more than the cap", async () => {
    const pooled = await connectEngines(LOCAL_ENGINE, { warmPool: 1 });
    const own = newSessionId();
    const labels = { session: own, run: "pool-grow" };
    const buildDir = await writeJsBuild({});
    const check = () => checkImports({ engine: pooled, image, labels, buildDir, timeoutMs: 30_000 });
    const idle = async (want: (n: number) => boolean): Promise<number> => {
      for (let waited = 0; ; waited += 200) {
        const n = (await pooled.countManaged(own)).containers;
        if (want(n) || waited > 30_000) return n;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    await check();
    // One caller at a time, with the pool caught up: one kept ready, as configured.
    expect(await idle((n) => n === 1)).toBe(1);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await pooled.countManaged(own)).containers).toBe(1);
    // Four at once: three wait for sandboxes still being made, so the pool keeps more ready.
    expect((await Promise.all([check(), check(), check(), check()])).every((c) => c.ok)).toBe(true);
    const grown = await idle((n) => n >= 4);
    expect(grown).toBeGreaterThanOrEqual(4);
    expect(grown).toBeLessThanOrEqual(8);
    await pooled.close();
    expect(await pooled.countManaged(own)).toEqual({ containers: 0, volumes: 0 });
  }, 120_000);
});
