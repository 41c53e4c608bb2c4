/**
 * One generation's wall time split into phases, from its generation.json timings (recorded
 * by the loop) and the sandbox traces of the timing engine (measured around the engine).
 */
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import type { SandboxTrace } from "./timing-engine.js";

/** Milliseconds per phase of one child; `overhead` = total − agentCompute − taskCompute. */
export interface Breakdown {
  id: string;
  valid: boolean;
  total: number;
  materialise: number;
  /** Self-modification, split: container start (or warm hand-out), tree in + meta agent load, improve itself, workspace out, stop + remove, the rest. */
  smStart: number;
  smLoad: number;
  agentCompute: number;
  smTakeOut: number;
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
  evalRemove: number;
  taskCompute: number;
  evalOther: number;
  record: number;
  overhead: number;
}

export const BREAKDOWN_ROWS: { key: keyof Breakdown; label: string }[] = [
  { key: "materialise", label: "materialise (parent build)" },
  { key: "smStart", label: "self-modify: container start" },
  { key: "smLoad", label: "self-modify: tree in + meta agent load" },
  { key: "agentCompute", label: "self-modify: improve() [AGENT COMPUTE]" },
  { key: "smTakeOut", label: "self-modify: workspace out (extractor)" },
  { key: "smRemove", label: "self-modify: container stop + remove" },
  { key: "smOther", label: "self-modify: rest (broker, request)" },
  { key: "extract", label: "extract (diff vs parent, hash)" },
  { key: "policy", label: "policy" },
  { key: "compile", label: "compile" },
  { key: "signature", label: "signature" },
  { key: "import", label: "import (whole gate)" },
  { key: "importStart", label: "  import: container start" },
  { key: "importRemove", label: "  import: container remove" },
  { key: "evalContainers", label: "evaluation containers (count)" },
  { key: "evalStart", label: "evaluate: container starts (sum)" },
  { key: "evalRemove", label: "evaluate: container removes (sum)" },
  { key: "taskCompute", label: "evaluate: solve() [TASK COMPUTE]" },
  { key: "evalOther", label: "evaluate: rest (load, grading, I/O)" },
  { key: "record", label: "archive write" },
  { key: "total", label: "TOTAL" },
  { key: "overhead", label: "HARNESS OVERHEAD = total − agent − task" },
];

const span = (a: number | null, b: number | null): number => (a === null || b === null ? 0 : Math.max(0, b - a));

/** The breakdown of `record` given the traces of its sandboxes. */
export function breakdown(record: GenerationRecord, traces: readonly SandboxTrace[]): Breakdown {
  const mine = traces.filter((t) => t.labels.generation === record.id);
  const sm = mine.find((t) => t.labels.phase === "self-modify");
  const imp = mine.find((t) => t.labels.phase === "validate");
  const evals = mine.filter((t) => (t.labels.phase ?? "").startsWith("evaluate"));
  const tm = record.timings;
  const smStart = sm ? span(sm.requestedAt, sm.startedAt) : 0;
  const smLoad = sm ? span(sm.startedAt, sm.readyAt) : 0;
  const agentCompute = sm ? span(sm.readyAt, sm.resultAt) : 0;
  const smTakeOut = sm?.takeMs ?? 0;
  const smRemove = sm?.removeMs ?? 0;
  const selfModify = tm.selfModify ?? 0;
  const taskCompute = record.evaluation?.computeMs ?? 0;
  const evaluate = tm.evaluate ?? 0;
  const evalStart = evals.reduce((s, t) => s + span(t.requestedAt, t.startedAt), 0);
  const evalRemove = evals.reduce((s, t) => s + t.removeMs, 0);
  const total = tm.total ?? 0;
  return {
    id: record.id,
    valid: record.status.kind === "valid",
    total,
    materialise: tm.materialise ?? 0,
    smStart,
    smLoad,
    agentCompute,
    smTakeOut,
    smRemove,
    smOther: Math.max(0, selfModify - smStart - smLoad - agentCompute - smTakeOut - smRemove),
    extract: tm.extract ?? 0,
    policy: tm.policy ?? 0,
    compile: tm.compile ?? 0,
    signature: tm.signature ?? 0,
    import: tm.import ?? 0,
    importStart: imp ? span(imp.requestedAt, imp.startedAt) : 0,
    importRemove: imp?.removeMs ?? 0,
    evalContainers: evals.length,
    evalStart,
    evalRemove,
    taskCompute,
    evalOther: Math.max(0, evaluate - evalStart - evalRemove - taskCompute),
    record: tm.record ?? 0,
    overhead: total - agentCompute - taskCompute,
  };
}
