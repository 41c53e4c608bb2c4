/** events.jsonl: one JSON object per line, appended as the run goes. */
import { z } from "zod";
import { FailureCode, ValidationStage } from "../results/index.js";
import { RngState } from "../selection/index.js";
import { SelectionStrategyName } from "../selection/index.js";
import { GenerationId, Timestamp } from "./generation-id.js";

const base = { at: Timestamp };
const gen = { at: Timestamp, generation: GenerationId };

export const ArchiveEvent = z.discriminatedUnion("type", [
  /** A process took the run: its pid and host name, so a later reader can tell whether it still lives. */
  z.object({ type: z.literal("started"), ...base, run: z.string(), pid: z.number().int().optional(), host: z.string().optional() }),
  z.object({
    type: z.literal("selected"),
    ...gen,
    parent: GenerationId,
    /** "arena": drawn by an arena round's tournament (arena/rounds/ records the populations). */
    strategy: z.union([SelectionStrategyName, z.literal("arena")]),
    /** The RNG right after this draw, so the event log alone can rebuild the sequence. */
    rng: RngState.optional(),
  }),
  z.object({
    type: z.literal("self_modified"),
    ...gen,
    ok: z.boolean(),
    error: z.string().nullable(),
    durationMs: z.number().nonnegative(),
  }),
  /** The checks of a child's tree begin: a harness that dies before `validated` died checking this snapshot. */
  z.object({ type: z.literal("checking"), ...gen, snapshotHash: z.string() }),
  z.object({
    type: z.literal("validated"),
    ...gen,
    ok: z.boolean(),
    stage: ValidationStage.nullable(),
    code: FailureCode.nullable(),
  }),
  z.object({
    type: z.literal("evaluated"),
    ...gen,
    visible: z.number().nullable(),
    heldout: z.number().nullable(),
    stage1: z.number().nullable(),
  }),
  z.object({ type: z.literal("recorded"), ...gen, status: z.enum(["valid", "invalid", "duplicate"]) }),
  /** The run policy made this valid child wait for a person (after its `recorded`): why, and until when. */
  z.object({ type: z.literal("approval_requested"), ...gen, reasons: z.array(z.string()), deadline: Timestamp.nullable() }),
  /**
   * A decision on a pending child, appended by whichever process made it (`evolve approve` or
   * `reject`, or the run at a timeout), after decisions/<gen>.json, which is the record.
   */
  z.object({ type: z.literal("approved"), ...gen, by: z.string(), note: z.string().nullable() }),
  z.object({ type: z.literal("rejected"), ...gen, by: z.string(), reason: z.string().nullable(), timedOut: z.boolean() }),
  z.object({
    type: z.literal("resumed"),
    ...base,
    recorded: z.number().int().nonnegative(),
    pid: z.number().int().optional(),
    host: z.string().optional(),
  }),
  z.object({ type: z.literal("interrupted"), ...base, reason: z.string() }),
  /** An engine of the run stopped answering (its containers' work is redone elsewhere) or answers again. */
  z.object({ type: z.literal("engine"), ...base, engine: z.string(), state: z.enum(["down", "up"]), reason: z.string().nullable() }),
  /** An arena round's phase ended (its record is arena/rounds/rNNNN.json): what the suite became. */
  z.object({
    type: z.literal("arena"),
    ...base,
    round: z.number().int().positive(),
    phase: z.enum(["tests", "complete"]),
    suite: z.number().int().nonnegative(),
    admitted: z.number().int().nonnegative(),
    retired: z.number().int().nonnegative(),
  }),
  /** A child is done again from the start (same id, same seed): an engine was lost under it. */
  z.object({ type: z.literal("redone"), ...gen, attempt: z.number().int().positive(), reason: z.string() }),
  z.object({ type: z.literal("finished"), ...base, best: GenerationId.nullable() }),
]);
export type ArchiveEvent = z.infer<typeof ArchiveEvent>;
export type ArchiveEventType = ArchiveEvent["type"];

/**
 * A line of transcript.jsonl as the archive vouches for it: its kind and time, the rest kept
 * as written. The full shape of an entry is the LLM broker's TranscriptEntry (harness/src/llm).
 */
export const TranscriptLine = z.looseObject({ kind: z.string().min(1), at: Timestamp });
export type TranscriptLine = z.infer<typeof TranscriptLine>;
