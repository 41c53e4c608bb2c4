/**
 * A live run's view of the decisions on its pending children. People decide in other
 * processes (`evolve approve`, `evolve reject`), which write decisions/<gen>.json; the run
 * never trusts a cached answer: it re-reads that folder before every selection and once a
 * second while it waits, joins what it finds into the records selection reads, and writes
 * the timeout's rejection for requests whose deadline has passed. A decision already on
 * disk always wins over the timeout (the first file stands).
 */
import { readDecision, recordDecision, timeoutDecision, type ApprovalDecision, type ArchiveWriter, type GenerationRecord } from "../../archive/index.js";
import { timedOut, type RunPolicy } from "../../supervision/index.js";
import type { Progress } from "../view/index.js";

const POLL_MS = 1_000;

export class ApprovalWatch {
  readonly #runDir: string;
  /** The loop's records, shared: decided ones are replaced in place by their joined copy. */
  readonly #records: GenerationRecord[];
  readonly #progress: Progress;
  readonly #timeoutMinutes: number | undefined;
  #running: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(writer: ArchiveWriter, records: GenerationRecord[], progress: Progress, policy: RunPolicy | null) {
    this.#runDir = writer.runDir;
    this.#records = records;
    this.#progress = progress;
    this.#timeoutMinutes = policy?.approval?.timeoutMinutes;
  }

  /** Joins decisions made since the last look and times out what is overdue (one look at a time). */
  refresh(): Promise<void> {
    this.#running ??= this.#look().finally(() => (this.#running = null));
    return this.#running;
  }

  /** Looks once a second until stopped (a pending child can time out while every worker is busy). */
  start(): void {
    this.#timer ??= setInterval(() => void this.refresh().catch(() => undefined), POLL_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => undefined);
  }

  async #look(): Promise<void> {
    const open = this.#records.filter((g) => g.approval !== undefined && g.approval.decision === null);
    const now = Date.now();
    // Only the open children's files: decisions are written once, so a joined one never changes.
    for (const g of open) {
      let decision = readDecision(this.#runDir, g.id);
      if (decision === null && g.approval !== undefined && timedOut(g.approval, now)) {
        const written = await recordDecision(this.#runDir, timeoutDecision(g.id, this.#timeoutMinutes));
        decision = written.written ? written.decision : written.existing;
      }
      if (decision !== null) this.#apply(g.id, decision);
    }
  }

  #apply(id: string, decision: ApprovalDecision): void {
    // Looked up again: the loop may have pushed and re-sorted records during the reads.
    const i = this.#records.findIndex((r) => r.id === id);
    const g = this.#records[i];
    if (g?.approval === undefined || g.approval.decision !== null) return;
    const joined: GenerationRecord = { ...g, approval: { ...g.approval, decision } };
    this.#records[i] = joined;
    this.#progress.decided(joined);
  }
}
