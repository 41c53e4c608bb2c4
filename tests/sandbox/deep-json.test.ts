/**
 * A protocol line the host cannot even check must not take the host down: an answer nested
 * thousands of levels deep (legal JSON, cheap to print) overflowed the stack of the zod check
 * of runner lines, and the exception escaped the container's output stream into the harness.
 * It is a protocol violation like any other line that is not a message.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { openSolveSession } from "../../sandbox/src/index.js";
import { writeJsBuild } from "../support/js-build.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";

let t: TestEngine;
beforeAll(async () => {
  t = await testEngine();
});

describe("a runner line too deep to check", () => {
  it("ends the session as a protocol violation and leaves the host running", async () => {
    const task = `export async function solve(input) { let v = 0; for (let i = 0; i < input; i++) v = [v]; return v; }\n`;
    const session = await openSolveSession({
      engine: t.engine,
      image: t.image,
      labels: { session: t.session, phase: "test" },
      buildDir: await writeJsBuild({ task }),
      timeoutMs: 30_000,
      task: "demo",
      seed: 1,
      llmAvailable: false,
    });
    expect(await session.call(3, { timeoutMs: 5_000 })).toMatchObject({ ok: true, value: [[[0]]] });
    const deep = await session.call(4_000, { timeoutMs: 5_000 });
    expect(deep).toMatchObject({ ok: false, kind: "protocol" });
    expect(deep.ok ? "" : deep.reason).toMatch(/not a protocol message/);
    await session.close();
    expect(await t.engine.countManaged(t.session)).toEqual({ containers: 0, volumes: 0 });
  });
});
