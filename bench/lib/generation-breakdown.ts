/**
 * One generation's wall time split into phases, from its generation.json timings (recorded
 * by the loop) and the sandbox traces of the timing engine (measured around the engine).
 * The ctx.evaluate drafts (their checks and containers, answered by the host while improve()
 * waits) are the harness's work: taken out of the agent's compute and counted as overhead.
 */
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import type { SandboxTrace } from "./timing-engine.js";

/** Milliseconds per phase of one child; `overhead` = total − agentCompute − taskCompute. */
export interface Breakdown {
  id: string;
  /** Went through every phase (valid); otherwise it stopped at a gate or before. */
  valid: boolean;
  total: number;
  materialise: number;
  /** Self-modification, split: container start (or warm hand-out), tree in + meta agent load, improve itself, workspace out, stop + remove, the rest. */
  smStart: number;
  smLoad: number;
  /** improve() itself: from its start to its answer, less the time the host spent on its ctx.evaluate drafts. */
  agentCompute: number;
  /** The ctx.evaluate drafts: their checks and containers (harness work while improve() waits). */
  drafts: number;
  draftContainers: number;
  smTakeOut: number;
  /** Its removal, when the caller waited for it (not when the container was released). */
  smRemove: number;
  smOther: number;
  extract: number;
  policy: number;
  compile: number;
  signature: number;
  /** Import gate: whole, and its container start and remove. */
  import: number;
  importStart: number;
  importRemove: number;
  /** Evaluation: containers opened, their start and remove sums, the task's compute, the rest. */
  evalContainers: number;
  evalStart: number;
  /** Removals the evaluation waited for (released containers' are in `backgroundRemove`). */
  evalRemove: number;
  /** Removals of released containers (self-modify, evaluation, drafts): Docker's teardown, off the child's path. */
  backgroundRemove: number;
  taskCompute: number;
  evalOther: number;
  record: number;
  /**
   * The record folder's atomic write (snapshot, patch, transcript, logs, their syncs): after
   * the record's own timings.total, so measured from its `recorded` event (ms resolution).
   */
  archiveWrite: number;
  /**
   * The loop's work before the child started (approvals looked at, the parent selected, the
   * RNG written to run.json and the `selected` event): at W = 1, from the last record's
   * `recorded` event to the child's start. Outside the child's own timings.total.
   */
  loop: number;
  overhead: number;
}

export const BREAKDOWN_ROWS: { key: keyof Breakdown; label: string }[] = [
  { key: "loop", label: "loop: selection, run record (since the last record; W = 1)" },
  { key: "materialise", label: "materialise (parent build)" },
  { key: "smStart", label: "self-modify: container start" },
  { key: "smLoad", label: "self-modify: tree in + meta agent load" },
  { key: "agentCompute", label: "self-modify: improve() less its drafts [AGENT COMPUTE]" },
  { key: "drafts", label: "self-modify: ctx.evaluate drafts (checks + containers)" },
  { key: "draftContainers", label: "  drafts: containers (count)" },
  { key: "smTakeOut", label: "self-modify: workspace out (improve's answer → removal)" },
  { key: "smRemove", label: "self-modify: container stop + remove (when waited for)" },
  { key: "smOther", label: "self-modify: rest (broker, request)" },
  { key: "extract", label: "extract (diff vs parent, hash)" },
  { key: "policy", label: "policy" },
  { key: "compile", label: "compile" },
  { key: "signature", label: "signature" },
  { key: "import", label: "import (its container, or the load in the first evaluation session)" },
  { key: "importStart", label: "  import: own container start" },
  { key: "importRemove", label: "  import: own container remove" },
  { key: "evalContainers", label: "evaluation containers (count)" },
  { key: "evalStart", label: "evaluate: container starts (sum)" },
  { key: "evalRemove", label: "evaluate: container removes waited for (sum)" },
  { key: "taskCompute", label: "evaluate: solve() [TASK COMPUTE]" },
  { key: "evalOther", label: "evaluate: rest (load, grading, I/O)" },
  { key: "record", label: "archive: record prepared (events, logs)" },
  { key: "archiveWrite", label: "archive: record folder written (snapshot, files, syncs)" },
  { key: "backgroundRemove", label: "removals of released containers (background, not in TOTAL)" },
  { key: "total", label: "TOTAL" },
  { key: "overhead", label: "HARNESS OVERHEAD = total − agent − task" },
];

const span = (a: number | null, b: number | null): number => (a === null || b === null ? 0 : Math.max(0, b - a));

/**
 * The breakdown of `record` given the traces of its sandboxes, the time its `recorded` event
 * was written and the time the record before it was (epoch ms; null when there is none).
 */
export function breakdown(record: GenerationRecord, traces: readonly SandboxTrace[], recordedAt: number | null, previousRecordedAt: number | null): Breakdown {
  const mine = traces.filter((t) => t.labels.generation === record.id);
  const sm = mine.find((t) => t.labels.phase === "self-modify");
  const imp = mine.find((t) => t.labels.phase === "validate");
  const evals = mine.filter((t) => (t.labels.phase ?? "").startsWith("evaluate"));
  const tm = record.timings;
  const smStart = sm ? span(sm.requestedAt, sm.startedAt) : 0;
  const smLoad = sm ? span(sm.startedAt, sm.readyAt) : 0;
  const drafts = record.evaluateCalls?.durationMs ?? 0;
  const agentCompute = sm ? Math.max(0, span(sm.readyAt, sm.resultAt) - drafts) : 0;
  // From improve's answer to the container's removal: the tree written out (it comes with the
  // answer, or through Docker's archive) and the shutdown. The drafts' takes are in `drafts`.
  const smTakeOut = sm ? span(sm.resultAt, sm.removeStartedAt) : 0;
  const waited = (t: SandboxTrace): number => (t.released ? 0 : t.removeMs);
  const smRemove = sm ? waited(sm) : 0;
  const selfModify = tm.selfModify ?? 0;
  const taskCompute = record.evaluation?.computeMs ?? 0;
  const evaluate = tm.evaluate ?? 0;
  const evalStart = evals.reduce((s, t) => s + span(t.requestedAt, t.startedAt), 0);
  const evalRemove = evals.reduce((s, t) => s + waited(t), 0);
  const backgroundRemove = mine.reduce((s, t) => s + (t.released ? t.removeMs : 0), 0);
  // createdAt is taken when the record is built, before its preparation (tm.record) and its write.
  const archiveWrite = recordedAt === null ? 0 : Math.max(0, recordedAt - Date.parse(record.createdAt) - (tm.record ?? 0));
  const started = Date.parse(record.createdAt) - (tm.total ?? 0);
  const loop = previousRecordedAt === null ? 0 : Math.max(0, started - previousRecordedAt);
  const total = loop + (tm.total ?? 0) + archiveWrite;
  return {
    id: record.id,
    valid: record.status.kind === "valid",
    total,
    materialise: tm.materialise ?? 0,
    smStart,
    smLoad,
    agentCompute,
    drafts,
    draftContainers: record.evaluateCalls?.containers ?? 0,
    smTakeOut,
    smRemove,
    smOther: Math.max(0, selfModify - smStart - smLoad - agentCompute - drafts - smTakeOut - smRemove),
    extract: tm.extract ?? 0,
    policy: tm.policy ?? 0,
    compile: tm.compile ?? 0,
    signature: tm.signature ?? 0,
    import: tm.import ?? 0,
    importStart: imp ? span(imp.requestedAt, imp.startedAt) : 0,
    importRemove: imp ? waited(imp) : 0,
    evalContainers: evals.length,
    evalStart,
    evalRemove,
    backgroundRemove,
    taskCompute,
    evalOther: Math.max(0, evaluate - evalStart - evalRemove - taskCompute),
    record: tm.record ?? 0,
    archiveWrite,
    loop,
    overhead: total - agentCompute - taskCompute,
  };
}
