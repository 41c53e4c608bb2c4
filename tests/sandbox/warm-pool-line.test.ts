/**
 * The warm pool's line: it makes its sandboxes one at a time, however many callers come at
 * once, and makes none after it closes. The sandboxes here are stand-ins that count how many
 * are being made at once; what a real one does is tests/sandbox/warm-pool.test.ts's.
 */
import { describe, expect, it } from "vitest";
import type { DockerSandbox } from "../../sandbox/src/docker/docker-sandbox.js";
import { WarmPool } from "../../sandbox/src/docker/warm-pool.js";
import type { RunningSandbox, SandboxSpec } from "../../sandbox/src/port/index.js";

const SPEC: SandboxSpec = { image: "img", command: ["node"], labels: { session: "s", run: "r" } };
const RUN = { timeoutMs: 1_000, stdoutCapBytes: 1_000, stderrCapBytes: 1_000 };
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A `make` whose sandboxes take `ms` to create and start, counting those in the making at once. */
function countingMake(ms: number) {
  const seen = { inFlight: 0, most: 0, made: 0, pooled: 0, removed: 0 };
  const make = async (spec: SandboxSpec): Promise<DockerSandbox> => {
    seen.inFlight++;
    seen.most = Math.max(seen.most, seen.inFlight);
    if (spec.labels.phase === "pool") seen.pooled++;
    const id = ++seen.made;
    await tick(ms / 2);
    const sandbox = {
      prestart: async () => {
        await tick(ms / 2);
        seen.inFlight--;
      },
      activate: async () => ({ id }) as unknown as RunningSandbox,
      remove: async () => void seen.removed++,
    };
    return sandbox as unknown as DockerSandbox;
  };
  return { make, seen };
}

describe("warm pool line", () => {
  it("makes pooled sandboxes one at a time while eight callers come at once, and serves every caller a sandbox of its own", async () => {
    const { make, seen } = countingMake(20);
    const pool = new WarmPool(make, 2);
    await pool.acquire(SPEC, RUN); // nothing warm yet: it makes its own, and the pool fills its line of two
    for (let waited = 0; seen.made < 3; waited += 10) {
      if (waited > 5_000) throw new Error("the pool never filled");
      await tick(10);
    }
    seen.most = 0;
    const madeBefore = seen.made;
    const handed = await Promise.all(Array.from({ length: 8 }, () => pool.acquire(SPEC, RUN)));
    const ids = handed.map((s) => (s as unknown as { id: number }).id);
    expect(new Set(ids).size).toBe(8);
    // Every sandbox of the burst came from the pool's line, one in the making at a time.
    expect(seen.most).toBe(1);
    expect(seen.made - madeBefore).toBe(seen.pooled - 2);
    // Eight callers that waited grew the pool beyond its first two.
    expect(pool.depthOf(SPEC)).toBeGreaterThan(2);
    await pool.close();
    // Whatever was made and not handed out is removed; nothing is made after the close.
    const made = seen.made;
    await tick(100);
    expect(seen.made).toBe(made);
    expect(seen.removed).toBe(made - 9);
  });

  it("makes nothing that was still in its line when it closed", async () => {
    const { make, seen } = countingMake(40);
    const pool = new WarmPool(make, 8);
    await pool.acquire(SPEC, RUN); // its own sandbox, while the pool's line of eight begins
    await pool.close();
    const made = seen.made;
    await tick(400);
    // Those made by the close are removed (all but the caller's own); the rest of the line never is made.
    expect(seen.made).toBe(made);
    expect(made).toBeLessThan(1 + 8);
    expect(seen.removed).toBe(made - 1);
  });
});
