/**
 * Phase 2 of a generation: the parent's meta agent rewrites a copy of the parent's tree in
 * a fresh container (its compiled build runs the code), LLM calls go through a broker of
 * this generation. Every agent failure is a value; only harness failures throw.
 */
import { z } from "zod";
import type { ImproveRequest } from "@evolve/contract";
import { runImprove, type ImproveOutcome } from "../../../../sandbox/src/index.js";
import { toWire } from "../../kernel/index.js";
import type { BrokerUsage, TranscriptEntry } from "../../llm/index.js";
import { failure, type FailureAt } from "../../results/index.js";
import { containerLabels, generationBroker, type CandidateContext, type SolveLlm } from "../context/index.js";
import { oneLine } from "../../text/index.js";
import { createDraftEvaluator, evaluateSlackMs } from "./draft-evaluator.js";
import type { EvaluateCalls } from "../../archive/index.js";
import type { StageRun } from "../../evaluation/index.js";

/** What the meta agent's report may say; anything else in it is ignored. */
const ReportShape = z.object({ summary: z.string() }).loose();

const SUMMARY_CHARS = 500;

export interface SelfModifyInput {
  ctx: CandidateContext;
  generationId: string;
  /** The parent's snapshot (TypeScript tree) and its compiled build. */
  parentSnapshotDir: string;
  parentBuildDir: string;
  /** A new host folder for the edited tree. */
  takeTo: string;
  seed: number;
  /** Builds the request once the broker knows the tokens left. */
  request: (llmTokens: number | null, deadline: number) => ImproveRequest;
  /** The task agent's model for ctx.evaluate drafts (a task that needs one): the generation's. */
  solveLlm?: SolveLlm;
}

export interface SelfModifyResult {
  /** Null when the agent returned a usable tree; else why not, and at which stage. */
  failure: FailureAt<"self_modify" | "extract"> | null;
  /** True when the workspace came back through the extractor into `takeTo`. */
  treeTaken: boolean;
  /** The report's summary, capped (null when it gave none). */
  summary: string | null;
  outcome: ImproveOutcome["outcome"];
  transcript: TranscriptEntry[];
  usage: BrokerUsage;
  /** The meta agent's ctx.evaluate calls; null when the run allows none. */
  evaluateCalls: EvaluateCalls | null;
  model: string | null;
  durationMs: number;
  /** A ctx.evaluate draft's whole run of the visible split for a tree (DraftEvaluator.wholeRunOf): its child's race may be read off it. */
  draftRunOf: (snapshotHash: string) => { run: StageRun; call: number } | null;
}

/** Runs `improve` of the parent on its own tree; the edited tree lands in `takeTo` when usable. */
export async function selfModifyStep(input: SelfModifyInput): Promise<SelfModifyResult> {
  const { ctx } = input;
  const started = performance.now();
  // The agent's deadline leaves slack for the workspace to be taken out before the kill;
  // ctx.evaluate runs on the agent's time, and the container's clock gets what a call
  // begun just before the deadline can outlast it by (see evaluateSlackMs).
  const deadline = Date.now() + Math.max(1_000, ctx.sandbox.improveTimeoutMs - 15_000);
  const broker = generationBroker(ctx, deadline);
  const drafts = createDraftEvaluator({
    ctx,
    generationId: input.generationId,
    parentSnapshotDir: input.parentSnapshotDir,
    deadline,
    ...(input.solveLlm === undefined ? {} : { solveLlm: input.solveLlm }),
  });
  const request = input.request(broker.remainingTokens(), deadline);
  // What the agent was told was already tried: the transcript's first line, before its calls.
  const shown: TranscriptEntry[] = (request.attempts ?? []).length === 0 ? [] : [{ kind: "attempts", at: new Date().toISOString(), attempts: request.attempts ?? [] }];
  let result: ImproveOutcome;
  try {
    result = await runImprove({
      engine: ctx.sandbox.engine,
      image: ctx.sandbox.image,
      labels: containerLabels(ctx, input.generationId, "self-modify"),
      buildDir: input.parentBuildDir,
      agentDir: input.parentSnapshotDir,
      takeTo: input.takeTo,
      runtime: ctx.sandbox.runtime,
      timeoutMs: ctx.sandbox.improveTimeoutMs + (ctx.evaluations > 0 ? evaluateSlackMs(ctx) : 0),
      init: { task: ctx.task.manifest.name, seed: input.seed, llmAvailable: ctx.llm.setup.available, deadline, request: toWire(withProbe(request, ctx.llm.probed)) },
      onLlm: broker.onLlm,
      onTool: broker.onTool,
      evaluate: drafts.service,
    });
  } finally {
    broker.close();
    const harnessFailure = await drafts.close();
    if (harnessFailure !== null) throw harnessFailure;
  }
  return {
    ...judgedOutcome(result),
    treeTaken: result.extracted.ok,
    outcome: result.outcome,
    // Arrival order across the broker's and the evaluator's entries (a stable sort keeps ties as they came).
    transcript: [...shown, ...broker.transcript(), ...drafts.transcript()].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
    usage: broker.usage(),
    evaluateCalls: ctx.evaluations > 0 ? drafts.usage() : null,
    model: ctx.llm.setup.available ? ctx.llm.setup.model : null,
    durationMs: performance.now() - started,
    draftRunOf: (hash) => drafts.wholeRunOf(hash),
  };
}

/** The report's summary and what went wrong, in order: the container's end, the extraction, the report. */
function judgedOutcome(result: ImproveOutcome): Pick<SelfModifyResult, "summary" | "failure"> {
  const parsed = ReportShape.safeParse(result.report);
  const summary = parsed.success ? oneLine(parsed.data.summary, SUMMARY_CHARS) : null;
  if (result.end !== null) {
    const code = result.end.kind === "timeout" || result.end.kind === "oom" ? result.end.kind : "improve_failed";
    return { summary, failure: failure("self_modify", code, oneLine(result.end.reason, SUMMARY_CHARS)) };
  }
  if (!result.extracted.ok) return { summary, failure: failure("extract", "extraction_refused", oneLine(result.extracted.reason, SUMMARY_CHARS)) };
  if (!parsed.success) return { summary, failure: failure("self_modify", "bad_report", "improve returned no { summary: string } report") };
  return { summary, failure: null };
}

/** The request with what the run's model probe found (ImproveRequest.llm), when the run was probed. */
function withProbe(request: ImproveRequest, probed: ImproveRequest["llm"]): ImproveRequest {
  return probed === undefined ? request : { ...request, llm: probed };
}
