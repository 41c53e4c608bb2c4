/**
 * The task agent's model while one generation is evaluated, for a task whose manifest says
 * needsModel: one broker per generation, shared by its ctx.evaluate drafts and its own
 * evaluation, over the run's solve-time ledger and per-generation limits, never the meta
 * agent's. Its calls become the generation's solve-transcript.jsonl and its usage the
 * record's `solve`. Any other task's agent runs without a model, as it always has.
 */
import type { WireLlmAnswer } from "../../kernel/index.js";
import type { GenerationRecord, SolveUsage } from "../../archive/index.js";
import { createGenerationBroker, type LlmBroker, type TranscriptEntry } from "../../llm/index.js";
import type { RunContext } from "./run-context.js";

export interface SolveLlm {
  /** What an evaluation passes on to the task agent's containers. */
  readonly evaluation: { llmAvailable: boolean; onLlm?: (request: unknown) => Promise<WireLlmAnswer> };
  /** Every call so far (the broker's transcript). */
  transcript(): TranscriptEntry[];
  /** The record's `solve`; undefined when the task agent had no model or made no call. */
  usage(): SolveUsage | undefined;
  /** Marks where the generation's own evaluation begins: the calls before are its drafts'. */
  beginEvaluation(): void;
  /** Refuses later calls (the generation is over). */
  close(): void;
}

/** The task agent of a task that does not need a model: no model, nothing recorded. */
export const NO_SOLVE_LLM: SolveLlm = {
  evaluation: { llmAvailable: false },
  transcript: () => [],
  usage: () => undefined,
  beginEvaluation: () => undefined,
  close: () => undefined,
};

/** The generation's solve-time model, or NO_SOLVE_LLM when the task or the run has none. */
export function openSolveLlm(ctx: Pick<RunContext, "llm" | "task">): SolveLlm {
  const solve = ctx.llm.solve;
  if (ctx.task.manifest.needsModel !== true || solve === undefined || !ctx.llm.setup.available) return NO_SOLVE_LLM;
  const broker: LlmBroker = createGenerationBroker({
    setup: ctx.llm.setup,
    runLedger: solve.runLedger,
    generationLimits: solve.generationLimits,
    ...(solve.port === undefined ? {} : { port: solve.port }),
  });
  let draftEntries: number | null = null;
  return {
    evaluation: { llmAvailable: true, onLlm: broker.onLlm },
    transcript: () => broker.transcript(),
    usage: () => {
      const entries = broker.transcript().length;
      if (entries === 0) return undefined;
      const used = broker.usage();
      return { calls: used.calls, tokens: { prompt: used.promptTokens, completion: used.completionTokens }, costUsd: used.costUsd, draftEntries: draftEntries ?? entries };
    },
    beginEvaluation: () => {
      draftEntries ??= broker.transcript().length;
    },
    close: () => broker.close(),
  };
}

/** What the task agents of `records` spent at solve time (a resumed run's solve ledger starts from it). */
export function solveSpentOf(records: readonly GenerationRecord[]): { tokens: number; usd: number } {
  return records.reduce(
    (s, r) => (r.solve === undefined ? s : { tokens: s.tokens + r.solve.tokens.prompt + r.solve.tokens.completion, usd: s.usd + (r.solve.costUsd ?? 0) }),
    { tokens: 0, usd: 0 },
  );
}
