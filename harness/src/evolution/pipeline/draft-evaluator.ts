/**
 * ctx.evaluate, host side, for one generation: the meta agent's workspace as it is now is
 * taken out through the safe extractor, checked like a child (policy, compile, signature in
 * the bounded check worker; import in a container) and evaluated on visible instances in
 * fresh containers, on the run's evaluation seed. The answer is the visible feedback only.
 *
 * Bounded: `allowed` calls per generation (a refused call does not count), one at a time, and
 * none begins closer than MIN_WINDOW_MS to the meta agent's deadline. Everything the agent
 * gets wrong (a malformed request, unknown or held-out ids, a loop past the count) is a
 * refusal value; a failure of the harness itself is kept and rethrown by the caller.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import type { EvaluateResult } from "@evolve/contract";
import type { EvaluateService, LiveWorkspace } from "../../../../sandbox/src/index.js";
import { toWire, type WireJson } from "../../kernel/index.js";
import type { EvaluateCalls } from "../../archive/index.js";
import type { EvaluateTranscriptEntry } from "../../llm/index.js";
import type { StageRun } from "../../evaluation/index.js";
import { capText } from "../../text/index.js";
import type { RunContext } from "../context/index.js";
import { planDraftRequest, type DraftPlan } from "./draft-request.js";
import { MESSAGE_CHARS, runDraft, type DraftContext } from "./draft-run.js";
import type { SolveLlm } from "../context/index.js";

/** No call begins with less than this before the meta agent's deadline. */
export const MIN_WINDOW_MS = 10_000;
/** Refused calls recorded one by one; later ones are only counted. */
const RECORDED_REFUSALS = 20;
/** Container starts (import check, evaluation sessions) beyond the limits of what runs in them. */
const STARTS_MS = 20_000;

export interface DraftEvaluatorInput {
  ctx: DraftContext;
  generationId: string;
  /** The parent's snapshot: the draft is checked against it, as the child will be. */
  parentSnapshotDir: string;
  /** The meta agent's deadline (epoch ms). */
  deadline: number;
  /** The task agent's model while drafts are evaluated (a task that needs one): the generation's. */
  solveLlm?: SolveLlm;
}

/**
 * How long one call can outlast the meta agent's deadline: a call begins at least
 * MIN_WINDOW_MS before it, and its checks and last instance run under their own limits.
 * The self-modification container's clock gets this on top, so the host's work is never
 * what kills it.
 */
export function evaluateSlackMs(ctx: Pick<RunContext, "sandbox" | "validator" | "task">): number {
  return ctx.validator.limits.timeoutMs + ctx.sandbox.importTimeoutMs + ctx.task.manifest.instanceTimeoutMs + STARTS_MS;
}

/**
 * One generation's ctx.evaluate service: calls are parsed, counted against the generation's
 * allowance (reserved at arrival, so calls made at once cannot together exceed it), queued
 * one at a time, and each run through `runDraft` in a scratch folder of its own. Every call
 * is answered with a value; a harness failure meanwhile is kept for `close` to return.
 */
export class DraftEvaluator {
  /** ctx.evaluate for the improve container: `answer` always settles with an EvaluateResult. */
  readonly service: EvaluateService = { answer: (request, workspace) => this.onEvaluate(request, workspace), unavailable: (reason) => toWire(this.#refusal(reason)) };
  readonly #input: DraftEvaluatorInput;
  readonly #entries: EvaluateTranscriptEntry[] = [];
  readonly #usage: EvaluateCalls = { calls: 0, counted: 0, containers: 0, durationMs: 0 };
  #reserved = 0;
  #refusalsRecorded = 0;
  #closed = false;
  #failure: unknown = null;
  #queue: Promise<unknown> = Promise.resolve();
  /** Drafts' scratch folders being removed: the agent does not wait for them, close() does. */
  readonly #removals: Promise<void>[] = [];
  #drafts = 0;
  /** Whole runs of the visible split in race order, by the draft tree's snapshot hash (draft-run.ts, reusableRun). */
  readonly #wholeRuns = new Map<string, { run: StageRun; call: number }>();

  constructor(input: DraftEvaluatorInput) {
    this.#input = input;
  }

  /** Answers one ctx.evaluate call (`request` is unchecked agent data). */
  async onEvaluate(request: unknown, workspace: LiveWorkspace): Promise<WireJson> {
    const arrived = performance.now();
    this.#usage.calls++;
    const plan = planDraftRequest(request, this.#input.ctx.task);
    const entry: EvaluateTranscriptEntry = { kind: "evaluate", at: new Date().toISOString(), request: plan.describe, result: { outcome: "refused", remaining: 0 }, snapshotHash: null, durationMs: 0, timings: {}, containers: 0 };
    const answer = (result: EvaluateResult): WireJson => {
      entry.result = result;
      entry.durationMs = performance.now() - arrived;
      this.#record(entry);
      return toWire(result);
    };
    const allowed = this.#input.ctx.evaluations;
    if (!plan.ok) return answer(this.#refusal(plan.reason));
    if (this.#reserved >= allowed) return answer(this.#refusal(allowed === 0 ? "this run allows no evaluations (evolve run --evaluations N)" : `no evaluations left: this generation allows ${allowed}`));
    const early = this.#closedReason();
    if (early !== null) return answer(this.#refusal(early));
    this.#reserved++;
    const turn = this.#queue.then(() => this.#turn(plan, workspace, entry));
    this.#queue = turn.catch(() => undefined);
    return answer(await turn);
  }

  /** Every call so far (refusals up to a cap), in arrival order. */
  transcript(): EvaluateTranscriptEntry[] {
    return this.#entries.map((e) => structuredClone(e));
  }

  usage(): EvaluateCalls {
    return { ...this.#usage };
  }

  /** The last whole run of the visible split of the draft with this tree, that its child may read its race off; null when none. */
  wholeRunOf(snapshotHash: string): { run: StageRun; call: number } | null {
    return this.#wholeRuns.get(snapshotHash) ?? null;
  }

  /** Refuses later calls and waits for the one running; returns a harness failure met meanwhile, if any. */
  async close(): Promise<unknown> {
    this.#closed = true;
    await this.#queue;
    await Promise.all(this.#removals);
    return this.#failure;
  }

  /** A call's turn in the queue: refused if the window closed meanwhile, else the draft runs. */
  async #turn(plan: Extract<DraftPlan, { ok: true }>, workspace: LiveWorkspace, entry: EvaluateTranscriptEntry): Promise<EvaluateResult> {
    const late = this.#closedReason();
    if (late !== null) {
      this.#reserved--;
      return this.#refusal(late);
    }
    this.#usage.counted++;
    const { ctx, generationId } = this.#input;
    const call = ++this.#drafts;
    const dir = await mkdtemp(join(ctx.workRoot, `${generationId}-draft${call}-`));
    const keepWhole = (hash: string, run: StageRun): void => void this.#wholeRuns.set(hash, { run, call });
    try {
      return await runDraft({ ...this.#input, plan, workspace, dir, entry, remaining: () => this.#remaining(), keepWhole });
    } catch (error) {
      // A harness failure: the agent is told, the generation step rethrows it after the container.
      this.#failure ??= error;
      return this.#refusal("the harness failed while evaluating the draft");
    } finally {
      // Nothing reads the folder once the answer is made: ~9 ms a draft the agent need not wait for.
      this.#removals.push(rm(dir, { recursive: true, force: true }).catch(() => undefined));
    }
  }

  #remaining(): number {
    return Math.max(0, this.#input.ctx.evaluations - this.#reserved);
  }

  #refusal(reason: string): EvaluateResult {
    return { outcome: "refused", reason: capText(reason, MESSAGE_CHARS), remaining: this.#remaining() };
  }

  /** Why no call may begin now, or null. */
  #closedReason(): string | null {
    if (this.#closed) return "the generation is over";
    if (this.#input.ctx.signal.aborted) return "the run is stopping";
    const left = this.#input.deadline - Date.now();
    if (left < MIN_WINDOW_MS) return `the deadline is ${Math.max(0, Math.round(left / 1000))} s away; an evaluation needs at least ${MIN_WINDOW_MS / 1000} s`;
    return null;
  }

  #record(entry: EvaluateTranscriptEntry): void {
    this.#usage.durationMs += entry.durationMs;
    this.#usage.containers += entry.containers;
    if (entry.result.outcome === "refused" && ++this.#refusalsRecorded > RECORDED_REFUSALS) return;
    this.#entries.push(entry);
  }
}

/** The ctx.evaluate service of one generation. */
export function createDraftEvaluator(input: DraftEvaluatorInput): DraftEvaluator {
  return new DraftEvaluator(input);
}
