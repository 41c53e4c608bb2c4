/**
 * A grader's way to run code it does not trust: `ctx.runTests({ source, exports, tests })`.
 * The candidate's answer (TypeScript source text) and the calls the tests make go into a fresh
 * hardened container (sandbox/src/sessions/exec-session.ts) through the evaluation's own engine, so the
 * container is placed, labelled and counted like the evaluation's others; only the returned
 * values come back, and each is compared here with the test's expected value, which never
 * leaves the host. The answer is a report value; a malformed request (the grader's bug) throws.
 */
import { inspect } from "node:util";
import { z } from "zod";
import { decodeValue, runCodeTests, type CallOutcome, type CodeTestOutcome, type RuntimeImage, type SandboxEngine, type SandboxLabels, type SandboxLimits } from "../../../sandbox/src/index.js";
import { EvolveError, WireJson, type Runtime } from "../kernel/index.js";
import { capText, oneLine } from "../text/index.js";
import { Comparison, valuesMatch } from "./compare-values.js";

const Identifier = z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/, "a JavaScript identifier");

/** One test: call `export` with `args`; it passes when the value matches `expect` under `compare`. */
export const CodeTest = z.strictObject({
  name: z.string().min(1).max(200),
  export: Identifier,
  args: z.array(WireJson).max(16),
  expect: WireJson,
  compare: Comparison.default("equal"),
});
export type CodeTest = z.input<typeof CodeTest>;

export const CodeTestRequest = z.strictObject({
  /** The candidate's answer: TypeScript module text (hostile; refused past MAX_SOURCE_BYTES). */
  source: z.string(),
  /** Exports the answer must have, each with its type as TypeScript text. */
  exports: z.array(z.strictObject({ name: Identifier, type: z.string().min(1).max(2_000) })).min(1).max(16),
  /** Declarations the types may name (`type Point = { x: number; y: number };`). */
  declarations: z.string().max(20_000).default(""),
  tests: z.array(CodeTest).min(1).max(200),
  /** Wall clock of each call (default 2 s). */
  callTimeoutMs: z.number().int().min(10).max(30_000).default(2_000),
  /** Heap of the thread the answer runs in (default 128 MiB). */
  memoryMb: z.number().int().min(16).max(384).default(128),
});
export type CodeTestRequest = z.input<typeof CodeTestRequest>;

/** One test's verdict; `detail` says what went wrong (empty when it passed). */
export interface TestVerdict {
  name: string;
  passed: boolean;
  detail: string;
}

/**
 * tested: every test has a verdict (a call that timed out fails, and the calls after it are
 * not run); compileMs is the container's compile phase (the compiler's start and the check). compile_error: the source does not type-check against the exports. violation: the
 * answer exited, flooded, ran out of memory or reached for the file system, a process or the
 * network. timeout / crash: the container's clock ran out or it died, so there is no verdict.
 * refused: nothing ran (too large an answer, or the evaluation's time was up).
 */
export type CodeTestReport =
  | { status: "tested"; passed: number; total: number; tests: TestVerdict[]; output: string; durationMs: number; compileMs: number }
  | { status: "compile_error"; message: string; durationMs: number }
  | { status: "violation"; reason: string; passed: number; total: number; tests: TestVerdict[]; durationMs: number }
  | { status: "timeout" | "crash"; reason: string; durationMs: number }
  | { status: "refused"; reason: string };

export type RunTests = (request: CodeTestRequest) => Promise<CodeTestReport>;

/** The largest answer a code test takes, in bytes of UTF-8. */
export const MAX_SOURCE_BYTES = 64 * 1024;
/** Compiler start and type check: generous, since the compiler loads cold in each container. */
const COMPILE_TIMEOUT_MS = 45_000;
const LOAD_TIMEOUT_MS = 10_000;
const SLACK_MS = 10_000;
const VALUE_CAP_BYTES = 64 * 1024;
const OUTPUT_CAP_BYTES = 1024 * 1024;

/** Where a code-test container runs: the evaluation's engine, image, labels and limits. */
export interface CodeTestEnv {
  engine: SandboxEngine;
  image: RuntimeImage;
  labels: SandboxLabels;
  runtime?: Runtime;
  limits?: Partial<SandboxLimits>;
  /** Epoch ms after which no container is started (the split's whole-evaluation limit). */
  deadline: () => number;
}

/** A decoded value, short, for feedback (it is the candidate's, never the expected one). */
export function showValue(value: unknown): string {
  return oneLine(inspect(value, { depth: 3, maxArrayLength: 8, maxStringLength: 60, breakLength: Infinity }), 80);
}

function verdictOf(test: z.output<typeof CodeTest>, outcome: CallOutcome): TestVerdict {
  if (!outcome.ok) return { name: test.name, passed: false, detail: oneLine(`${outcome.kind === "not_run" ? "" : `${outcome.kind}: `}${outcome.reason}`, 300) };
  const got = decodeValue(outcome.value);
  const passed = valuesMatch(got, decodeValue(test.expect), test.compare);
  return { name: test.name, passed, detail: passed ? "" : `got ${showValue(got)}` };
}

function reportOf(outcome: CodeTestOutcome, tests: readonly z.output<typeof CodeTest>[]): CodeTestReport {
  const { durationMs } = outcome;
  switch (outcome.kind) {
    case "compile_error":
      return { status: "compile_error", message: capText(outcome.errors.join("\n"), 2_000), durationMs };
    case "timeout":
    case "crash":
      return { status: outcome.kind, reason: oneLine(`${outcome.phase === "compile" ? "while compiling: " : ""}${outcome.reason}`, 500), durationMs };
    case "ran": {
      const verdicts = tests.map((t, i) => verdictOf(t, outcome.calls[i] ?? { id: i, ok: false, kind: "not_run", reason: "not run", ms: 0 }));
      const passed = verdicts.filter((v) => v.passed).length;
      const violation = outcome.calls.find((c) => !c.ok && (c.kind === "exited" || c.kind === "memory" || c.kind === "flood" || c.kind === "denied"));
      if (violation !== undefined && !violation.ok) {
        return { status: "violation", reason: oneLine(`${violation.kind}: ${violation.reason}`, 500), passed, total: tests.length, tests: verdicts, durationMs };
      }
      return { status: "tested", passed, total: tests.length, tests: verdicts, output: capText(outcome.output, 2_000), durationMs, compileMs: outcome.compileMs };
    }
  }
}

/** The `runTests` of a grade context, over `env`. */
export function createCodeTester(env: CodeTestEnv): RunTests {
  return async (raw) => {
    const parsed = CodeTestRequest.safeParse(raw);
    if (!parsed.success) throw new EvolveError("invalid_task", `runTests: ${z.prettifyError(parsed.error).slice(0, 500)}`);
    const request = parsed.data;
    const bytes = Buffer.byteLength(request.source, "utf8");
    if (bytes > MAX_SOURCE_BYTES) return { status: "refused", reason: `the answer is ${bytes} bytes of source; at most ${MAX_SOURCE_BYTES} are run` };
    if (Date.now() >= env.deadline()) return { status: "refused", reason: "not run: the whole-evaluation time limit was reached" };
    const known = new Set(request.exports.map((e) => e.name));
    const stray = request.tests.find((t) => !known.has(t.export));
    if (stray !== undefined) throw new EvolveError("invalid_task", `runTests: test "${stray.name}" calls ${stray.export}, which is not among the declared exports`);
    const calls = request.tests.map((t, id) => ({ id, export: t.export, args: t.args }));
    const outcome = await runCodeTests({
      engine: env.engine,
      image: env.image,
      labels: env.labels,
      ...(env.runtime === undefined ? {} : { runtime: env.runtime }),
      ...(env.limits === undefined ? {} : { limits: env.limits }),
      request: {
        source: request.source,
        declarations: request.declarations,
        exports: request.exports,
        calls,
        loadTimeoutMs: LOAD_TIMEOUT_MS,
        callTimeoutMs: request.callTimeoutMs,
        workerMemoryMb: request.memoryMb,
        outputCapBytes: OUTPUT_CAP_BYTES,
        valueCapBytes: VALUE_CAP_BYTES,
      },
      compileTimeoutMs: COMPILE_TIMEOUT_MS,
      timeoutMs: COMPILE_TIMEOUT_MS + LOAD_TIMEOUT_MS + calls.length * request.callTimeoutMs + SLACK_MS,
    });
    return reportOf(outcome, request.tests);
  };
}

/** For contexts where nothing may run (the smoke test of `evolve check`): every request is refused. */
export const NO_CODE_TESTS: RunTests = async () => ({ status: "refused", reason: "no code runs here (a stand-in candidate on the host)" });
