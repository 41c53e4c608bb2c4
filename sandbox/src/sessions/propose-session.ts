/**
 * Arena: one call of a tester's `propose` in a fresh hardened container. The answer is
 * hostile JSON, bounded by the container's wall clock and an output cap; every way the
 * tester can fail is a value (`ProposeAnswer` with `ok: false` and the kind). Only the
 * engine failing throws. The container is removed on every path.
 */
import type { ContainerEnd, WireJson } from "../../../harness/src/kernel/index.js";
import { DEFAULT_STDOUT_CAP, endOf, openRunnerChannel, type AgentContainerOptions } from "./runner-channel.js";

/** What the runner needs to call `propose`, and the bounds of the call. */
export interface ProposeOptions extends Omit<AgentContainerOptions, "onTool" | "evaluate" | "stdoutCapBytes"> {
  task: string;
  seed: number;
  llmAvailable: boolean;
  /** The harness's ProposeRequest, as wire JSON. */
  request: WireJson;
  /** Wall clock of the whole container, loading included; `ctx.deadline` is its end. */
  timeoutMs: number;
  /** The most the answer may be, as JSON (UTF-8 bytes); past it the answer is refused. */
  outputCapBytes: number;
}

/** Why a propose call gave no answer: every kind of `ContainerEnd`. */
export type ProposeEnd = ContainerEnd;

export type ProposeAnswer = ({ ok: true; value: WireJson } | ProposeEnd) & { stderr: string; durationMs: number };

/** How long a runner that has answered gets to end by itself before it is killed. */
const EXIT_GRACE_MS = 2_000;

type Verdict = { ok: true; value: WireJson } | ProposeEnd | null;

/** Runs the build's tester/index.js `propose(request, ctx)` once. Never throws for the tester's misbehaviour. */
export async function runPropose(options: ProposeOptions): Promise<ProposeAnswer> {
  const started = Date.now();
  const { task, seed, llmAvailable, request, outputCapBytes, ...container } = options;
  // Stdout carries the tester's LLM requests as well as its answer: room for both, and the
  // answer is measured on its own below.
  const channel = await openRunnerChannel({ ...container, stdoutCapBytes: DEFAULT_STDOUT_CAP + outputCapBytes });
  try {
    channel.send({ type: "init", mode: "propose", task, seed, llmAvailable, deadline: started + options.timeoutMs, request });
    let verdict: Verdict = null;
    while (verdict === null) {
      const message = await channel.next();
      if (message === null) break;
      if (message.type === "ready") {
        const kind = message.exports["propose"];
        if (kind !== "function") verdict = { ok: false, kind: "not_a_function", reason: `tester/index.js: \`propose\` is ${kind === "undefined" || kind === undefined ? "not exported" : `a ${kind}`}, not a function` };
      } else if (message.type === "load-error") {
        verdict = { ok: false, kind: "load_error", reason: `the tester failed to load: ${message.message}` };
      } else if (message.type === "result" && message.id === 0) {
        verdict = !message.ok
          ? { ok: false, kind: "error", reason: `propose threw: ${message.error}` }
          : withinCap(message.value, outputCapBytes);
      } else {
        verdict = { ok: false, kind: "protocol", reason: `unexpected ${message.type} message from the propose runner` };
      }
    }
    if (verdict === null || !verdict.ok) {
      // Nothing more is wanted from a tester that failed; one still running is stopped now.
      if (verdict !== null) await channel.sandbox.kill();
    } else {
      const ended = await Promise.race([channel.finished, new Promise<null>((r) => setTimeout(r, EXIT_GRACE_MS, null))]);
      if (ended === null) await channel.sandbox.kill();
    }
    const outcome = await channel.finished;
    const durationMs = Date.now() - started;
    const violation = channel.violation();
    // A line that broke the protocol taints whatever came with it.
    if (violation !== null) return { ok: false, kind: "protocol", reason: violation, stderr: outcome.stderr, durationMs };
    if (verdict !== null) return { ...verdict, stderr: outcome.stderr, durationMs };
    const end = endOf(outcome, null);
    return { ...end, reason: `the tester ${end.reason} before answering`, stderr: outcome.stderr, durationMs };
  } finally {
    await channel.sandbox.remove();
  }
}

function withinCap(value: WireJson, capBytes: number): Verdict {
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes <= capBytes) return { ok: true, value };
  return { ok: false, kind: "output_too_large", reason: `the answer is ${bytes} bytes of JSON (the cap is ${capBytes})` };
}
