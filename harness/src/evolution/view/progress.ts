/**
 * What a person watching a run sees: on a terminal, one live line (done/N, running, best,
 * valid/invalid, tokens, cost, elapsed, ETA) with a line per finished generation above it;
 * elsewhere, plain lines only. The machine-readable log is the run's events.jsonl.
 */
import type { EngineStatus } from "../../../../sandbox/src/index.js";
import type { GenerationRecord } from "../../archive/index.js";
import { formatScore, visibleText } from "../../report/index.js";
import { failureLabel } from "../../results/index.js";
import { approvalState } from "../../supervision/index.js";
import { capAtWord, plural } from "../../text/index.js";
import { describeStuck, graderErrorCount, graderErrors, stuckStart, type DiagnosisContext } from "./run-diagnosis.js";

/** Where progress goes; `isTTY` selects the live line. */
export interface ProgressSink {
  isTTY: boolean;
  write(text: string): void;
}

/** Counters of a run, as shown. */
interface Counters {
  total: number;
  done: number;
  valid: number;
  invalid: number;
  duplicates: number;
  running: number;
  best: number | null;
  tokens: number;
  costUsd: number | null;
  /** Instances the grader threw on (or answered malformed). */
  graderErrors: number;
}

/** Live progress of one run (of this process: ETA counts only what it did). */
export class Progress {
  readonly #sink: ProgressSink;
  readonly #counters: Counters;
  readonly #started = Date.now();
  readonly #supervised: boolean;
  /** Valid children waiting for a person's decision (run policy). */
  readonly #pending = new Set<string>();
  #doneHere = 0;
  #timer: NodeJS.Timeout | null = null;

  readonly #load: (() => string) | null;
  /** The task and whether a model rewrites code, for the words about a start that fails everywhere. */
  readonly #context: DiagnosisContext | null;
  /** "g0000 fails every instance: <reason>" while that holds; null otherwise. */
  #stuck: string | null = null;
  #graderErrorSaid = false;

  /**
   * `previous` are the children already recorded (a resumed run). `supervised`: the run's
   * policy has approval rules, so the live line counts pending children; `load` describes
   * the engines' load (several engines).
   */
  constructor(sink: ProgressSink, total: number, previous: readonly GenerationRecord[], options: { supervised?: boolean; load?: (() => string) | null; context?: DiagnosisContext } = {}) {
    this.#load = options.load ?? null;
    this.#context = options.context ?? null;
    this.#sink = sink;
    this.#supervised = options.supervised ?? false;
    this.#counters = { total, done: 0, valid: 0, invalid: 0, duplicates: 0, running: 0, best: null, tokens: 0, costUsd: 0, graderErrors: 0 };
    for (const record of previous) this.#count(record);
    const start = previous.find((r) => r.parent === null);
    if (start !== undefined) this.#watchStart(start, false);
    this.#counters.done = previous.filter((r) => r.parent !== null).length;
    if (sink.isTTY) {
      this.#timer = setInterval(() => this.#draw(), 1_000);
      this.#timer.unref();
    }
  }

  /** A plain message (start-up, sweep, warnings). */
  note(message: string): void {
    this.#print(message);
  }

  /** A child was handed to a worker. */
  childStarted(): void {
    this.#counters.running++;
    this.#draw();
  }

  /** A child ended without a record (interrupted). */
  childAbandoned(): void {
    this.#counters.running = Math.max(0, this.#counters.running - 1);
    this.#draw();
  }

  /** A generation was recorded (the seed included). */
  recorded(record: GenerationRecord): void {
    if (record.parent !== null) {
      this.#counters.running = Math.max(0, this.#counters.running - 1);
      this.#counters.done++;
      this.#doneHere++;
    }
    this.#count(record);
    this.#print(describeRecord(record, this.#counters));
    this.#sayGraderErrors(record);
    if (record.parent === null) this.#watchStart(record, true);
    else if (this.#stuck !== null && record.status.kind === "valid" && (record.scores.visible ?? 0) > 0) this.#stuck = null;
  }

  /** The first grader error of the run, in words (later ones are counted on the live line and in the summary). */
  #sayGraderErrors(record: GenerationRecord): void {
    if (this.#graderErrorSaid) return;
    const errors = graderErrors([record]);
    if (errors === null) return;
    this.#graderErrorSaid = true;
    this.#print(`${record.id}: ${plural(errors.instances, "instance")} scored 0 because the grader failed (${errors.example.instance}: ${errors.example.reason}); fix grader.ts, evolve check tries stand-in answers only`);
  }

  /** Generation 0 failing every visible instance the same way: said once in full, then kept on the live line. */
  #watchStart(record: GenerationRecord, say: boolean): void {
    const stuck = this.#context === null ? null : stuckStart(record, this.#context);
    if (stuck === null) return;
    this.#stuck = `${stuck.generation} scores 0 everywhere: ${capAtWord(stuck.reason, 60)}`;
    if (!say) return;
    this.#print(describeStuck(stuck));
    this.#print(`  what to do: ${stuck.advice}`);
  }

  /** A pending child was approved or rejected (by a person, or by the timeout). */
  decided(record: GenerationRecord): void {
    const decision = record.approval?.decision;
    if (decision === undefined || decision === null) return;
    this.#pending.delete(record.id);
    const c = this.#counters;
    if (decision.verdict === "approved" && record.scores.visible !== null && (c.best === null || record.scores.visible > c.best)) c.best = record.scores.visible;
    const note = decision.note === null ? "" : `: ${capAtWord(decision.note, 160)}`;
    this.#print(`${record.id} ${decision.verdict} by ${decision.by}${note}`);
  }

  /** Stops the live line (leaves the terminal on a fresh line). */
  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#sink.isTTY) this.#sink.write("\r\x1b[K");
  }

  /** The live line's text. */
  line(): string {
    const c = this.#counters;
    const elapsed = Date.now() - this.#started;
    const left = c.total - c.done;
    const eta = this.#doneHere === 0 || left <= 0 ? "?" : formatDuration((elapsed / this.#doneHere) * left);
    const cost = c.costUsd === null ? "cost ?" : `$${c.costUsd.toFixed(4)}`;
    const pending = this.#supervised ? ` pending ${this.#pending.size}` : "";
    const engines = this.#load === null ? "" : ` | engines ${this.#load()}`;
    const graderErrors = c.graderErrors > 0 ? ` | grader errors ${c.graderErrors}` : "";
    const stuck = this.#stuck === null ? "" : ` | ${this.#stuck}`;
    return `[${c.done}/${c.total}] running ${c.running} | best ${formatScore(c.best)} | valid ${c.valid} invalid ${c.invalid}${c.duplicates > 0 ? ` dup ${c.duplicates}` : ""}${pending}${graderErrors} | ${c.tokens} tokens ${cost}${engines} | ${formatDuration(elapsed)} elapsed, ETA ${eta}${stuck}`;
  }

  #count(record: GenerationRecord): void {
    const c = this.#counters;
    if (record.status.kind === "valid") {
      if (record.parent !== null) c.valid++;
      const state = approvalState(record);
      if (state === "pending") this.#pending.add(record.id);
      // The best counts only what may be used, as bestGeneration does.
      const score = record.scores.visible;
      if (score !== null && (state === "not_required" || state === "approved") && (c.best === null || score > c.best)) c.best = score;
    } else if (record.status.kind === "duplicate") c.duplicates++;
    else if (record.parent !== null) c.invalid++;
    c.tokens += record.tokens.prompt + record.tokens.completion;
    c.graderErrors += graderErrorCount(record);
    c.costUsd = c.costUsd === null || record.costUsd === null ? null : c.costUsd + record.costUsd;
  }

  #print(text: string): void {
    if (this.#sink.isTTY) {
      this.#sink.write(`\r\x1b[K${text}\n`);
      this.#draw();
    } else {
      this.#sink.write(`${text}\n`);
    }
  }

  #draw(): void {
    if (this.#sink.isTTY && this.#timer !== null) this.#sink.write(`\r\x1b[K${this.line()}`);
  }
}

/** One line about a recorded generation. */
export function describeRecord(record: GenerationRecord, c: { done: number; total: number }): string {
  const head = record.parent === null ? `${record.id} (seed)` : `${record.id} <- ${record.parent} [${c.done}/${c.total}]`;
  const seconds = `${((record.timings.total ?? 0) / 1000).toFixed(1)} s`;
  if (record.status.kind === "invalid") {
    return `${head} invalid at ${failureLabel(record.status)} - ${capAtWord(record.status.message, 160)} (${seconds})`;
  }
  if (record.status.kind === "duplicate") return `${head} duplicate of ${record.status.of}: the same tree, not evaluated again (${seconds})`;
  const summary = record.summary === null ? "" : ` - ${capAtWord(record.summary, 120)}`;
  const waits = record.approval === undefined ? "" : `, waits for approval (${capAtWord(record.approval.reasons.join("; "), 160)})`;
  return `${head} valid: visible ${visibleText(record)}, held-out ${formatScore(record.scores.heldout)}${waits} (${seconds})${summary}`;
}

/** Containers per engine against its slots: "a 2/2 b 1/2 c down". */
export function formatEngineLoad(engines: readonly EngineStatus[]): string {
  return engines.map((e) => (e.state === "up" ? `${e.name} ${e.running}/${e.slots ?? "-"}` : `${e.name} ${e.state}`)).join(" ");
}

/** 75_000 → "1m15s". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
