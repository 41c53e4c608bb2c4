/** Phase 6 of a generation: one record (valid or not) and its files, written atomically. */
import {
  GENERATION_SCHEMA_VERSION,
  type ArchiveWriter,
  type ChangedFile,
  type EvaluateCalls,
  type GenerationFiles,
  type GenerationRecord,
  PhaseTimings,
  type SolveUsage,
} from "../../archive/index.js";
import type { EvaluationResult, Failure } from "../../results/index.js";
import type { BrokerUsage } from "../../llm/index.js";
import { scoresOf } from "../pipeline/index.js";
import { capText } from "../../text/index.js";

const LOG_CAP = 64 * 1024;

/** The fields a record is made of. */
export interface RecordInputs {
  id: string;
  parent: string | null;
  depth: number;
  failure: Failure | null;
  evaluation: EvaluationResult | null;
  summary: string | null;
  changes: ChangedFile[];
  usage: BrokerUsage;
  model: string | null;
  snapshotHash: string | null;
  seed: number;
  timings: PhaseTimings;
  /** performance.now() when the generation started. */
  started: number;
  /** The earlier generation whose tree this one is byte for byte (it was then not judged again). */
  duplicateOf?: string | null;
  /** The meta agent's ctx.evaluate calls; absent or null when it could make none. */
  evaluateCalls?: EvaluateCalls | null;
  /** The task agent's own LLM use while evaluated (a task that needs a model); absent: none. */
  solve?: SolveUsage | undefined;
}

/** Builds the generation record (timings.total is set when it is written). */
export function buildRecord(inputs: RecordInputs): GenerationRecord {
  const { failure } = inputs;
  return {
    schemaVersion: GENERATION_SCHEMA_VERSION,
    id: inputs.id,
    parent: inputs.parent,
    depth: inputs.depth,
    status:
      failure !== null
        ? { kind: "invalid", ...failure }
        : inputs.duplicateOf != null
          ? { kind: "duplicate", of: inputs.duplicateOf }
          : { kind: "valid" },
    evaluation: inputs.evaluation,
    scores: scoresOf(inputs.evaluation),
    summary: inputs.summary,
    changedFiles: inputs.changes,
    tokens: { prompt: inputs.usage.promptTokens, completion: inputs.usage.completionTokens },
    costUsd: inputs.usage.costUsd,
    timings: PhaseTimings.parse({ ...inputs.timings, total: performance.now() - inputs.started }),
    model: inputs.model,
    snapshotHash: inputs.snapshotHash,
    seed: inputs.seed,
    ...(inputs.evaluateCalls == null ? {} : { evaluateCalls: inputs.evaluateCalls }),
    ...(inputs.solve === undefined ? {} : { solve: inputs.solve }),
    createdAt: new Date().toISOString(),
  };
}

/**
 * Appends the evaluated event and writes the record with its files. `timings.record` is the
 * time spent preparing the write (events, logs); the atomic write itself comes after it.
 */
export async function recordGeneration(writer: ArchiveWriter, record: GenerationRecord, files: GenerationFiles): Promise<GenerationRecord> {
  const t = performance.now();
  const at = (): string => new Date().toISOString();
  if (record.evaluation !== null) {
    await writer.appendEvent({ type: "evaluated", at: at(), generation: record.id, ...record.scores });
  }
  const logs: Record<string, string> = {};
  for (const [name, text] of Object.entries(files.logs)) if (text !== "") logs[name] = capLog(text);
  for (const stage of record.evaluation?.stages ?? []) if (stage.stderr !== "") logs[`evaluate-${stage.stage}.stderr`] = capLog(stage.stderr);
  const elapsed = performance.now() - t;
  const final: GenerationRecord = {
    ...record,
    timings: PhaseTimings.parse({ ...record.timings, record: elapsed, total: (record.timings.total ?? 0) + elapsed }),
  };
  await writer.recordGeneration(final, { ...files, logs });
  await writer.appendEvent({ type: "recorded", at: at(), generation: record.id, status: record.status.kind });
  return final;
}

function capLog(text: string): string {
  return capText(text, LOG_CAP, (length) => `\n[log capped at ${LOG_CAP} of ${length} characters]\n`);
}
