/**
 * The run context a replay runs steps in: the recorded run's task, seeds, runtime and
 * limits, a fresh session of containers, and LLM calls served from transcripts only
 * (a replay never reaches an endpoint, so it needs no key and spends nothing).
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newSessionId, type SandboxEngine } from "../../../sandbox/src/index.js";
import type { GenerationRecord, RunRecord } from "../archive/index.js";
import { loadTask } from "../evaluation/index.js";
import { checkLimitsOf, recordedTaskDir, runContextOf, type RunContext } from "../evolution/index.js";
import { DEFAULT_RETRY_POLICY, DEFAULT_TIMEOUT_MS, priceFor, type LlmSetup } from "../llm/index.js";
import { createValidator } from "../validation/index.js";

/** Where a replay's containers run. */
export interface ReplayEnvironment {
  engine: SandboxEngine;
  /** Container session label; fresh when absent. */
  session?: string;
  signal?: AbortSignal;
}

/** The LLM setup of the recorded run, pointing nowhere: calls are answered by a replay port. */
export function replaySetup(run: RunRecord): LlmSetup {
  const model = run.config.model;
  if (model === null) return { available: false, model: "offline", price: null, reason: "replay of an offline run" };
  return { available: true, model, baseURL: null, apiKey: null, timeoutMs: DEFAULT_TIMEOUT_MS, retry: DEFAULT_RETRY_POLICY, price: priceFor(model) };
}

/** Tokens the run had spent before `id` was created (what its broker's run ledger started from). */
export function spentBefore(generations: readonly GenerationRecord[], child: GenerationRecord): { tokens: number; usd: number } {
  return generations
    .filter((g) => g.createdAt < child.createdAt)
    .reduce((s, g) => ({ tokens: s.tokens + g.tokens.prompt + g.tokens.completion, usd: s.usd + (g.costUsd ?? 0) }), { tokens: 0, usd: 0 });
}

/** A run context like the recorded run's, in a temp work folder; dispose() removes the work. */
export async function createReplayContext(run: RunRecord, env: ReplayEnvironment): Promise<RunContext> {
  const image = await env.engine.ensureRuntimeImage();
  const validator = createValidator({ limits: checkLimitsOf(run) });
  const workRoot = await mkdtemp(join(tmpdir(), "evolve-replay-"));
  const ctx = runContextOf(run, {
    engine: env.engine,
    image,
    session: env.session ?? newSessionId(),
    task: await loadTask(recordedTaskDir(run.config.task)),
    validator,
    workRoot,
    llm: { setup: replaySetup(run), port: null },
    signal: env.signal ?? new AbortController().signal,
  });
  // The task agent's calls are never sent anywhere either: replay-solve.ts gives each replayed
  // generation a port over its solve transcript; until then there is none (calls are refused).
  return ctx.llm.solve === undefined ? ctx : { ...ctx, llm: { ...ctx.llm, solve: { ...ctx.llm.solve, port: null } } };
}
