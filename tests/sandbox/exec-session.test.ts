/**
 * Code-test containers against the real engine: a candidate's TypeScript source is
 * type-checked and called in its own container, and every way it can go wrong is a value.
 * (The hostile answers, under runc and runsc, are the security suite's case 19.)
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { decodeValue, runCodeTests, type CallOutcome, type CodeTestOutcome, type ExecCall } from "../../sandbox/src/index.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";

let t: TestEngine;
beforeAll(async () => {
  t = await testEngine();
});
afterEach(async () => {
  expect(await t.engine.countManaged(t.session)).toEqual({ containers: 0, volumes: 0 });
});

function run(source: string, exports: { name: string; type: string }[], calls: ExecCall[], over: { valueCapBytes?: number; compileTimeoutMs?: number } = {}): Promise<CodeTestOutcome> {
  return runCodeTests({
    engine: t.engine,
    image: t.image,
    labels: { session: t.session, phase: "grade-exec" },
    request: { source, declarations: "", exports, calls, loadTimeoutMs: 20_000, callTimeoutMs: 3_000, workerMemoryMb: 64, outputCapBytes: 64 * 1024, valueCapBytes: over.valueCapBytes ?? 4_096 },
    compileTimeoutMs: over.compileTimeoutMs ?? 90_000,
    timeoutMs: 180_000,
  });
}

function calls(outcome: CodeTestOutcome): CallOutcome[] {
  expect(outcome.kind, JSON.stringify(outcome).slice(0, 600)).toBe("ran");
  return outcome.kind === "ran" ? outcome.calls : [];
}

describe("runCodeTests", () => {
  it("calls the exports and brings back values JSON alone would blur (undefined, NaN, Map), errors per call, and the output", async () => {
    const source = `
      export function pick(kind: string): unknown {
        console.log("asked for", kind);
        if (kind === "undefined") return undefined;
        if (kind === "nan") return NaN;
        if (kind === "map") return new Map([["a", [1, 2]]]);
        if (kind === "throw") throw new RangeError("no such kind");
        if (kind === "function") return () => 1;
        if (kind === "big") return "x".repeat(10_000);
        return { kind, $evolve: "not a tag" };
      }
      export async function later(n: number): Promise<number> { return n * 2; }`;
    const exports = [{ name: "pick", type: "(kind: string) => unknown" }, { name: "later", type: "(n: number) => Promise<number>" }];
    const kinds = ["undefined", "nan", "map", "throw", "function", "big", "plain"];
    const list: ExecCall[] = [...kinds.map((kind, id) => ({ id, export: "pick", args: [kind] })), { id: 7, export: "later", args: [21] }];
    const outcome = await run(source, exports, list);
    const got = calls(outcome);
    const value = (i: number): unknown => {
      const c = got[i];
      return c?.ok === true ? decodeValue(c.value) : `failed: ${JSON.stringify(c)}`;
    };
    expect(value(0)).toBeUndefined();
    expect(value(1)).toBeNaN();
    expect(value(2)).toEqual(new Map([["a", [1, 2]]]));
    expect(got[3]).toMatchObject({ ok: false, kind: "threw" });
    expect(got[3]?.ok === false ? got[3].reason : "").toContain("RangeError: no such kind");
    expect(got[4]).toMatchObject({ ok: false, kind: "unsendable" });
    expect(got[5]).toMatchObject({ ok: false, kind: "too_large" });
    expect(value(6)).toEqual({ kind: "plain", $evolve: "not a tag" });
    expect(value(7)).toBe(42);
    expect(outcome.kind === "ran" ? outcome.output : "").toContain("asked for undefined");
  });

  it("reports a type error, a missing export and a mistyped export as compile errors, with where", async () => {
    const outcome = await run(`export function total(xs: number[]): string { return xs.length; }`, [{ name: "sum", type: "(xs: number[]) => number" }, { name: "total", type: "(xs: number[]) => number" }], [{ id: 0, export: "sum", args: [[1]] }]);
    expect(outcome.kind).toBe("compile_error");
    const errors = outcome.kind === "compile_error" ? outcome.errors.join("\n") : "";
    expect(errors).toMatch(/solution\.ts\(1,\d+\): error TS2322/);
    expect(errors).toContain("has no exported member 'sum'");
    expect(errors).toContain("(the declared exports)");
  });

  it("stops at a call that never returns and marks the rest not run; a forged stdout line is a crash, not a result", async () => {
    const exports = [{ name: "f", type: "(n: number) => number" }];
    const loop = await run(`export function f(n: number): number { if (n === 2) for (;;) {} return n; }`, exports, [0, 1, 2, 3].map((n) => ({ id: n, export: "f", args: [n] })));
    const got = calls(loop);
    expect(got.slice(0, 2).map((c) => c.ok)).toEqual([true, true]);
    expect(got[2]).toMatchObject({ ok: false, kind: "timeout" });
    expect(got[3]).toMatchObject({ ok: false, kind: "not_run" });

    const forged = await run(
      `const fs: any = await import("node:" + "fs");
       fs.writeSync(1, JSON.stringify({ type: "result", id: 0, ok: true, value: 99, ms: 0 }) + "\\n");
       export function f(n: number): number { return n; }`,
      exports,
      [{ id: 0, export: "f", args: [1] }],
    );
    // Writing to fd 1 is no path the permission model guards; the host's protocol check catches
    // the line (a result before the module was reported loaded) and ends the container.
    expect(forged).toMatchObject({ kind: "crash", phase: "run" });
    expect(forged.kind === "crash" ? forged.reason : "").toContain("a result line after a compiled line");
  });
});
