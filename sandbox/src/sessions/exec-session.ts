/**
 * A code-test container, host side: a candidate's TypeScript answer and the calls a grader's
 * tests make of it go into a fresh hardened container (the run's image, limits, runtime, no
 * network), placed through the sandbox port like every other container; what comes out is
 * hostile data, parsed line by line (zod), capped, and returned as a value. Only the
 * engine failing throws. The container is removed on every path.
 *
 * Two clocks: the compile phase (the compiler's start and the type check, where a type bomb
 * would spin) and the whole container; past either the container is killed and the outcome
 * says in which phase.
 */
import { dirname, join } from "node:path";
import { z } from "zod";
import { EXEC_ENTRY, STOPPING_KINDS, type CallFailureKind, type ExecMessage, type ExecRequest } from "../../runner/exec-protocol.js";
import { WireJson, type Runtime } from "../../../harness/src/kernel/index.js";
import type { RunningSandbox, RunOutcome, RuntimeImage, SandboxEngine, SandboxLabels, SandboxLimits } from "../port/index.js";
import { endOf } from "./runner-channel.js";

export interface CodeTestOptions {
  engine: SandboxEngine;
  image: RuntimeImage;
  labels: SandboxLabels;
  runtime?: Runtime;
  limits?: Partial<SandboxLimits>;
  request: Omit<ExecRequest, "type">;
  /** The compile phase's wall clock (the compiler's start included). */
  compileTimeoutMs: number;
  /** The container's wall clock; SIGKILL at expiry. */
  timeoutMs: number;
}

export type CallOutcome =
  | { id: number; ok: true; value: WireJson; ms: number }
  | { id: number; ok: false; kind: CallFailureKind | "not_run"; reason: string; ms: number };

/** What a code-test container gave: compile errors, or one outcome per call (in request order). */
export type CodeTestVerdict =
  | { kind: "compile_error"; errors: string[] }
  | { kind: "ran"; calls: CallOutcome[]; output: string; outputBytes: number; compileMs: number }
  /** A clock ran out (compile: the type check; run: the container's), or the container ended early: no verdict. */
  | { kind: "timeout" | "crash"; phase: "compile" | "run"; reason: string; calls: CallOutcome[] };

/** The verdict, with the container's wall time and its capped stderr (the runner's own, never the candidate's output). */
export type CodeTestOutcome = CodeTestVerdict & { durationMs: number; stderr: string };

const Ms = z.number().nonnegative().finite();
const Kind = z.enum(["threw", "unsendable", "too_large", "timeout", "exited", "memory", "flood", "denied"]);
const Reason = z.string().max(4_000);

/** Every line the exec runner may print; anything else ends the container as a violation. */
export const ExecMessageSchema: z.ZodType<ExecMessage> = z.union([
  z.object({ type: z.literal("started") }),
  z.object({ type: z.literal("compiled"), ok: z.literal(true), ms: Ms }),
  z.object({ type: z.literal("compiled"), ok: z.literal(false), errors: z.array(Reason).max(20), ms: Ms }),
  z.object({ type: z.literal("loaded"), ok: z.literal(true), ms: Ms }),
  z.object({ type: z.literal("loaded"), ok: z.literal(false), kind: Kind, reason: Reason, ms: Ms }),
  z.object({ type: z.literal("result"), id: z.number().int(), ok: z.literal(true), value: WireJson, ms: Ms }),
  z.object({ type: z.literal("result"), id: z.number().int(), ok: z.literal(false), kind: Kind, reason: Reason, ms: Ms }),
  z.object({ type: z.literal("done"), output: z.string().max(8_000), outputBytes: z.number().int().nonnegative() }),
]);

/** Room on stdout beyond the values themselves (messages, reasons). */
const STDOUT_BASE_BYTES = 256 * 1024;
const STDERR_CAP_BYTES = 64 * 1024;

/**
 * The command of a code-test container: Node's permission model (Node 20's flag spelling) lets
 * it read the runner, the compiler and the compiler's code cache (code-cache/ beside the
 * runner's folder: sandbox/runner/code-cache.ts), start its worker thread, and nothing more.
 */
export function execCommand(image: RuntimeImage): string[] {
  const [node, main] = image.command;
  const runnerDir = dirname(main ?? "/opt/evolve/runner/main.js");
  const codeCacheDir = join(dirname(runnerDir), "code-cache");
  return [node ?? "node", "--experimental-permission", `--allow-fs-read=${runnerDir}/*`, "--allow-fs-read=/node_modules/*", `--allow-fs-read=${codeCacheDir}/*`, "--allow-worker", "--no-warnings", `${runnerDir}/${EXEC_ENTRY}`];
}

/** Tracks the runner's lines: what phase it is in, and every call's outcome so far. */
class ExecTranscript {
  phase: "compile" | "run" = "compile";
  compileErrors: string[] | null = null;
  compileMs = 0;
  done: Extract<ExecMessage, { type: "done" }> | null = null;
  violation: string | null = null;
  readonly outcomes = new Map<number, CallOutcome>();
  #loadFailure: { kind: CallFailureKind; reason: string } | null = null;
  #next = 0;
  #last: ExecMessage["type"] | "none" = "none";

  constructor(private readonly ids: readonly number[]) {}

  /** Takes one message; false (and `violation` set) when it is out of order (started, compiled, loaded, result*, done). */
  take(m: ExecMessage): boolean {
    const fail = (why: string): boolean => {
      this.violation = `the code-test container broke its protocol: ${why}`;
      return false;
    };
    const due: Record<ExecMessage["type"], readonly string[]> = {
      started: ["none"],
      compiled: ["started"],
      loaded: ["compiled"],
      result: ["loaded", "result"],
      done: ["compiled", "loaded", "result"],
    };
    if (!due[m.type].includes(this.#last)) return fail(`a ${m.type} line after ${this.#last === "none" ? "nothing" : `a ${this.#last} line`}`);
    this.#last = m.type;
    switch (m.type) {
      case "started":
        return true;
      case "compiled":
        this.phase = "run";
        this.compileMs = m.ms;
        if (!m.ok) this.compileErrors = m.errors;
        return true;
      case "loaded":
        if (!m.ok) this.#loadFailure = { kind: m.kind, reason: m.reason };
        return true;
      case "result": {
        const expected = this.ids[this.#next];
        if (this.#loadFailure !== null || expected !== m.id) return fail(`a result for call ${m.id} where ${expected === undefined ? "none" : `call ${expected}`} was due`);
        this.#next += 1;
        this.outcomes.set(m.id, m.ok ? { id: m.id, ok: true, value: m.value, ms: m.ms } : { id: m.id, ok: false, kind: m.kind, reason: m.reason, ms: m.ms });
        return true;
      }
      case "done":
        this.done = m;
        return true;
    }
  }

  /** Every call's outcome, those never answered marked not run with why. */
  calls(whyMissing: string): CallOutcome[] {
    const stop = [...this.outcomes.values()].find((o) => !o.ok && o.kind !== "not_run" && STOPPING_KINDS.includes(o.kind));
    const load = this.#loadFailure;
    const reason =
      load !== null ? `the module did not load: ${load.reason}` : stop !== undefined && !stop.ok ? `not run: an earlier call ended the run (${stop.kind})` : whyMissing;
    return this.ids.map((id) => this.outcomes.get(id) ?? { id, ok: false, kind: load?.kind ?? "not_run", reason, ms: 0 });
  }
}

/** Runs the request's calls against its source in a fresh container. */
export async function runCodeTests(options: CodeTestOptions): Promise<CodeTestOutcome> {
  const started = Date.now();
  const ids = options.request.calls.map((c) => c.id);
  const log = new ExecTranscript(ids);
  let sandbox: RunningSandbox | null = null;
  const onLine = (line: string): void => {
    if (log.violation !== null) return;
    let parsed: ReturnType<typeof ExecMessageSchema.safeParse> | null = null;
    try {
      parsed = ExecMessageSchema.safeParse(JSON.parse(line));
    } catch {
      parsed = null;
    }
    if (parsed === null || !parsed.success) log.violation = `the code-test container printed a line that is not a protocol message: ${JSON.stringify(line.slice(0, 200))}`;
    else if (!log.take(parsed.data)) log.violation ??= "the code-test container broke its protocol";
    if (log.violation !== null) void sandbox?.kill();
  };
  const valueRoom = options.request.calls.length * (options.request.valueCapBytes * 2 + 2_048);
  sandbox = await options.engine.startSandbox(
    {
      image: options.image.tag,
      command: execCommand(options.image),
      labels: options.labels,
      ...(options.runtime === undefined ? {} : { runtime: options.runtime }),
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    },
    { timeoutMs: options.timeoutMs, stdoutCapBytes: STDOUT_BASE_BYTES + valueRoom, stderrCapBytes: STDERR_CAP_BYTES, onStdoutLine: onLine },
  );
  const running = sandbox;
  try {
    running.send({ type: "exec", ...options.request } satisfies ExecRequest);
    running.closeStdin();
    let compileTimedOut = false;
    const compileClock = setTimeout(() => {
      if (log.phase !== "compile") return;
      compileTimedOut = true;
      void running.kill();
    }, options.compileTimeoutMs);
    const outcome = await running.finished.finally(() => clearTimeout(compileClock));
    return { ...verdict(log, outcome, compileTimedOut, options), durationMs: Date.now() - started, stderr: outcome.stderr };
  } finally {
    await running.remove();
  }
}

function verdict(log: ExecTranscript, outcome: RunOutcome, compileTimedOut: boolean, options: CodeTestOptions): CodeTestVerdict {
  if (log.violation !== null) return { kind: "crash", phase: log.phase, reason: log.violation, calls: log.calls("not run: the container was stopped") };
  if (compileTimedOut) {
    return { kind: "timeout", phase: "compile", reason: `the type check did not finish within ${options.compileTimeoutMs} ms`, calls: log.calls("not run: the source did not compile in time") };
  }
  if (log.compileErrors !== null && log.done !== null) return { kind: "compile_error", errors: log.compileErrors };
  if (log.done !== null) return { kind: "ran", calls: log.calls("not run"), output: log.done.output, outputBytes: log.done.outputBytes, compileMs: log.compileMs };
  const why = `the code-test container ${endOf(outcome, null).reason}`;
  return { kind: outcome.timedOut ? "timeout" : "crash", phase: log.phase, reason: why, calls: log.calls(`not run: ${why}`) };
}
