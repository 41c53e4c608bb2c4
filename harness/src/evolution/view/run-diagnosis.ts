/**
 * Why a run cannot improve, said while it runs and in its summary instead of a silent row of
 * zeros: generation 0 (the seed, or a --from point) fails every visible instance for the same
 * reason (an agent that does not know a new task, a solver that always times out), or the
 * task's grader throws on real answers (which `evolve check`'s stand-in answers may not
 * reach). Counted from the records, which hold every instance's reason.
 */
import type { GenerationRecord } from "../../archive/index.js";
import { capAtWord, oneLine as cappedLine, plural } from "../../text/index.js";

/** What the words about a run depend on: its task and whether a model rewrites code. */
export interface DiagnosisContext {
  task: string;
  offline: boolean;
}

/** Generation 0 scores nothing, every visible instance for one reason. */
export interface StuckStart {
  generation: string;
  instances: number;
  reason: string;
  advice: string;
}

/** Instances the grader threw on (or answered malformed), and one of them as an example. */
export interface GraderErrors {
  instances: number;
  generations: number;
  example: { generation: string; instance: string; reason: string };
}

export interface RunDiagnosis {
  stuck: StuckStart | null;
  graderErrors: GraderErrors | null;
}

const GRADER_ERROR = /^grader error\b/;
/** Longest reason quoted (a reason is agent-influenced text: shown as one capped line). */
const REASON_CHARS = 160;

/** One line of text, whole (capped later, at a word). */
function oneLine(text: string): string {
  return cappedLine(text, 100_000);
}

/** The visible instances of a record, every stage. */
function visibleInstances(record: GenerationRecord): { id: string; score: number; reason: string }[] {
  return (record.evaluation?.stages ?? [])
    .filter((s) => s.stage !== "heldout")
    .flatMap((s) => s.instances.map((i) => ({ id: i.id, score: i.score, reason: withoutStack(oneLine(i.error ?? i.feedback)) })));
}

/** A reason without the stack trace a thrown error carries ("… at solve (file:///work/build/…)"): the message is the reason. */
function withoutStack(reason: string): string {
  const frame = /\s+at\s+(?:\S+\s+)?\(?(?:file|node):/.exec(reason);
  return frame === null ? reason : reason.slice(0, frame.index);
}

/** Reasons that differ only in numbers (a step, a time) are the same reason. */
function sameReason(a: string, b: string): boolean {
  const shape = (s: string): string => s.replace(/\d+(\.\d+)?/g, "#");
  return shape(a) === shape(b);
}

/** The reason every visible instance of generation 0 failed with, or null when it scored anywhere or failed in several ways. */
export function stuckReason(record: GenerationRecord): { instances: number; reason: string } | null {
  if (record.parent !== null || record.status.kind !== "valid") return null;
  const instances = visibleInstances(record);
  const first = instances[0];
  if (first === undefined || first.reason === "") return null;
  if (!instances.every((i) => i.score === 0 && sameReason(i.reason, first.reason))) return null;
  return { instances: instances.length, reason: capAtWord(first.reason, REASON_CHARS) };
}

/** What the person can do about a start that fails everywhere the same way. */
export function stuckAdvice(reason: string, context: DiagnosisContext): string {
  const writeAgent = `write an agent that can: evolve new agent DIR, add a case for "${context.task}" to DIR/task/index.ts, then --agent DIR`;
  if (GRADER_ERROR.test(reason)) return `fix ${context.task}'s grader.ts: it throws on the agent's answers (evolve check tries stand-in answers only)`;
  if (/does not know the task/.test(reason)) {
    return context.offline
      ? `the offline strategy only tunes the agent's knobs and cannot write a solver: give a model (--model, with OPENAI_BASE_URL) so the meta agent can write one, or ${writeAgent}`
      : `children improve only if the model writes a solver from this feedback; if none does, ${writeAgent}`;
  }
  return context.offline
    ? `every child starts from this failure and the offline strategy only tunes knobs: fix the agent (evolve show RUN g0000 has every instance's reason), or give a model (--model)`
    : "children improve only if the model fixes this; evolve show RUN g0000 has every instance's reason";
}

/** Generation 0 in words when it fails every visible instance the same way, else null. */
export function stuckStart(record: GenerationRecord, context: DiagnosisContext): StuckStart | null {
  const stuck = stuckReason(record);
  return stuck === null ? null : { generation: record.id, ...stuck, advice: stuckAdvice(stuck.reason, context) };
}

/** Instances of one record whose grade was a grader error. */
export function graderErrorCount(record: GenerationRecord): number {
  return (record.evaluation?.stages ?? []).reduce((n, s) => n + s.instances.filter((i) => GRADER_ERROR.test(i.error ?? i.feedback)).length, 0);
}

/** Instances whose grade was a grader error, over `records` (every split: they are the person's to see). */
export function graderErrors(records: readonly GenerationRecord[]): GraderErrors | null {
  let instances = 0;
  let generations = 0;
  let example: GraderErrors["example"] | null = null;
  for (const record of records) {
    const hits = (record.evaluation?.stages ?? []).flatMap((s) => s.instances).filter((i) => GRADER_ERROR.test(i.error ?? i.feedback));
    if (hits.length === 0) continue;
    generations++;
    instances += hits.length;
    const hit = hits[0]!;
    example ??= { generation: record.id, instance: capAtWord(oneLine(hit.id), 80), reason: capAtWord(withoutStack(oneLine(hit.error ?? hit.feedback)), REASON_CHARS) };
  }
  return example === null ? null : { instances, generations, example };
}

/** "g0000 scored 0 on every visible instance it ran (4), each for the same reason: …". */
export function describeStuck(stuck: Pick<StuckStart, "generation" | "instances" | "reason">): string {
  return `${stuck.generation} scored 0 on every visible instance it ran (${stuck.instances}), each for the same reason: ${stuck.reason}`;
}

/** Both diagnoses of a run's records. */
export function diagnose(records: readonly GenerationRecord[], context: DiagnosisContext): RunDiagnosis {
  const start = records.find((r) => r.parent === null);
  return { stuck: start === undefined ? null : stuckStart(start, context), graderErrors: graderErrors(records) };
}

/** The summary's lines about them (none when the run had neither). */
export function diagnosisLines(diagnosis: RunDiagnosis, runId: string): string[] {
  const lines: string[] = [];
  const { stuck, graderErrors: errors } = diagnosis;
  if (stuck !== null) {
    lines.push(`why no improvement: ${describeStuck(stuck)}`);
    lines.push(`  what to do: ${stuck.advice.replace("RUN", runId)}`);
  }
  if (errors !== null) {
    const { generation, instance, reason } = errors.example;
    lines.push(`grader errors: ${plural(errors.instances, "instance")} in ${plural(errors.generations, "generation")} scored 0 because the grader failed (e.g. ${generation} ${instance}: ${reason})`);
    lines.push("  what to do: fix grader.ts so it never throws on an answer (parseAnswer; evolve check tries stand-in answers only), then evolve replay or a new run");
  }
  return lines;
}
