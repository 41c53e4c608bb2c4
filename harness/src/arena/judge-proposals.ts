/**
 * A test generation's proposals through the oracle (README.md, "A proposal's way in" 1–4):
 * the count and size caps here on the host, everything that runs task code (the proposal
 * schema, `judge`, the grader's instanceSchema) in a bounded worker process. Every outcome is
 * a verdict with a reason; nothing a proposal does makes this throw.
 */
import { join } from "node:path";
import { z } from "zod";
import { EvolveError, parseJson } from "../kernel/index.js";
import type { Task } from "../evaluation/index.js";
import { oneLine } from "../text/index.js";
import { WireJson } from "../kernel/index.js";
import { ArenaInstance } from "./arena-record.js";
import type { DiscardCode } from "./discard-code.js";
import { JUDGE_TEXT_CHARS, jsonDepth, MAX_INSTANCE_BYTES, MAX_INSTANCE_DEPTH } from "./judge-protocol.js";
import { JudgeWorker, type WorkerEnd } from "./judge-worker-process.js";
import { WALL_BACKSTOP } from "../worker/index.js";

export type ProposalVerdict =
  | { index: number; outcome: "accepted"; id: string; instance: ArenaInstance; proposal: WireJson; verdict: string }
  | { index: number; outcome: "discarded"; code: DiscardCode; reason: string };

export interface JudgeOptions {
  /** Test ids are `${idPrefix}-${index + 1}`, e.g. "arena-t0003" → "arena-t0003-2". */
  idPrefix: string;
  /** CPU time of one judgement (schema, judge, instance check); default 2 s (harness/src/worker bounds it). */
  timeoutMs?: number;
  /** Heap cap of the worker process in MiB; default 256. */
  memoryMb?: number;
}

export const JUDGE_TIMEOUT_MS = 2_000;
export const JUDGE_MEMORY_MB = 256;

const line = (text: string): string => oneLine(text, JUDGE_TEXT_CHARS);

/** The instance text a worker sent, read back through the host's own bounds and schema (the worker checked it too). */
function readInstance(text: string, id: string): ArenaInstance | null {
  if (Buffer.byteLength(text) > MAX_INSTANCE_BYTES) return null;
  const depth = parseJson(z.unknown(), text);
  if (!depth.ok || jsonDepth(depth.value, MAX_INSTANCE_DEPTH) > MAX_INSTANCE_DEPTH) return null;
  const read = parseJson(ArenaInstance, text);
  return read.ok && read.value.id === id ? read.value : null;
}

/** The value as JSON text, or null when it is not JSON (a cycle, a BigInt, undefined). */
function jsonText(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

function limitVerdict(index: number, end: Exclude<WorkerEnd, { kind: "result" }>, timeoutMs: number, memoryMb: number): ProposalVerdict {
  switch (end.kind) {
    case "timeout":
      return { index, outcome: "discarded", code: "oracle_timeout", reason: `the oracle did not answer within ${timeoutMs / 1000} s of CPU time (${(timeoutMs * WALL_BACKSTOP) / 1000} s of wall time at most); its process was stopped` };
    case "out_of_memory":
      return { index, outcome: "discarded", code: "oracle_memory", reason: `the oracle ran out of its memory limit of ${memoryMb} MiB; its process was stopped` };
    case "exited":
      return { index, outcome: "discarded", code: "oracle_failed", reason: line(`the oracle's process ended while judging (${end.detail})`) };
  }
}

/** One verdict per proposal read, in order, then one `over_count` verdict for all the rest. */
export async function judgeProposals(task: Task, proposals: unknown[], options: JudgeOptions): Promise<ProposalVerdict[]> {
  const oracle = task.oracle;
  if (oracle === null) throw new EvolveError("invalid_task", `task ${task.manifest.name} has no oracle to judge proposals`);
  const { perRound } = oracle.limits;
  // Loaded here: the evaluation folder brings the sandbox with it, and `evolve tree` or `show`
  // read arena records through this folder's index (tests/architecture/light-commands.test.ts).
  const { GRADER_FILE } = await import("../evaluation/index.js");
  const workers = new Workers(join(task.dir, GRADER_FILE), options.memoryMb ?? JUDGE_MEMORY_MB);
  const verdicts: ProposalVerdict[] = [];
  try {
    for (const [index, proposal] of proposals.slice(0, perRound).entries()) verdicts.push(await judgeOne(workers, oracle.limits.maxBytes, index, proposal, options));
  } finally {
    await workers.close();
  }
  const rest = proposals.length - perRound;
  if (rest > 0) verdicts.push({ index: perRound, outcome: "discarded", code: "over_count", reason: `${rest.toLocaleString("en-US")} more ${rest === 1 ? "proposal" : "proposals"} past the cap of ${perRound} were not read` });
  return verdicts;
}

/** One proposal: its JSON text against the size cap on the host, then the worker's judgement, then the instance it made. */
async function judgeOne(workers: Workers, maxBytes: number, index: number, proposal: unknown, options: JudgeOptions): Promise<ProposalVerdict> {
  // From here on the proposal is its JSON text: what the oracle sees is what the record keeps.
  const text = jsonText(proposal);
  if (text === null) return { index, outcome: "discarded", code: "not_json", reason: "the proposal is not JSON" };
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) return { index, outcome: "discarded", code: "too_large", reason: `${bytes.toLocaleString("en-US")} bytes as JSON, over the oracle's limit of ${maxBytes.toLocaleString("en-US")}` };
  const worker = await workers.get();
  if (typeof worker === "string") return { index, outcome: "discarded", code: "oracle_failed", reason: worker };
  const id = `${options.idPrefix}-${index + 1}`;
  const timeoutMs = options.timeoutMs ?? JUDGE_TIMEOUT_MS;
  const end = await worker.judge(text, id, timeoutMs);
  if (end.kind !== "result") {
    // Killed or dead: the next proposal gets a fresh worker.
    await workers.drop();
    return limitVerdict(index, end, timeoutMs, workers.memoryMb);
  }
  const result = end.result;
  if (result.outcome === "discarded") return { index, outcome: "discarded", code: result.code, reason: line(result.reason) };
  const instance = readInstance(result.instance, id);
  // The proposal's text was made by JSON.stringify above: it reads back as JSON.
  const asJson = parseJson(WireJson, text);
  if (instance === null || !asJson.ok) return { index, outcome: "discarded", code: "instance_schema", reason: "the oracle's instance is not a JSON object within the caps, with its test id" };
  return { index, outcome: "accepted", id, instance, proposal: asJson.value, verdict: line(result.verdict) };
}

/** The judge worker of one call, started when first needed and replaced after a kill; one that cannot start is said once. */
class Workers {
  #worker: JudgeWorker | null = null;
  #cannotStart: string | null = null;

  constructor(
    private readonly graderPath: string,
    readonly memoryMb: number,
  ) {}

  /** A ready worker, or why none can start. */
  async get(): Promise<JudgeWorker | string> {
    if (this.#cannotStart !== null) return this.#cannotStart;
    if (this.#worker !== null) return this.#worker;
    const worker = new JudgeWorker(this.graderPath, this.memoryMb);
    const failed = await worker.started();
    if (failed === null) return (this.#worker = worker);
    await worker.close();
    return (this.#cannotStart = line(`the oracle's worker could not start: ${failed}`));
  }

  async drop(): Promise<void> {
    await this.#worker?.close();
    this.#worker = null;
  }

  close(): Promise<void> {
    return this.drop();
  }
}
