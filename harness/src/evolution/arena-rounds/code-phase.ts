/**
 * The code phase of an arena round: code children of the population (parents by binary
 * tournament on visible + suite) are made like any child, on a task whose visible split is
 * the visible instances followed by the suite's tests, so feedback, ctx.evaluate and the
 * record see the arena tests. The held-out split is the task's own and never changes.
 */
import { lineageOf, parseGenerationId, type ArchiveWriter, type ArenaSettings, type GenerationRecord } from "../../archive/index.js";
import { keepBest, matrixOf, recordOutcomes, retireAllPassed, taskWithSuite, tournamentPick, writeRound, type ArenaState, type RoundRecord } from "../../arena/index.js";
import type { InstanceResult } from "../../results/index.js";
import { compareIds, createRng } from "../../selection/index.js";
import { approvalCleared } from "../../supervision/index.js";
import { forEachLimited, scoresIn, standingOf } from "./standing.js";
import { runChild } from "../steps/index.js";
import type { Progress } from "../view/index.js";
import { redoingLost } from "../steps/index.js";
import { checkInterrupted, type RunContext } from "../context/index.js";
import { generationSeed } from "../context/index.js";

export interface CodePhaseInput {
  ctx: RunContext;
  writer: ArchiveWriter;
  settings: ArenaSettings;
  state: ArenaState;
  /** Every code generation recorded so far (the phase adds its children), in id order. */
  records: GenerationRecord[];
  passScore: number;
  progress: Progress;
  workers: number;
}

/** The parent as its child's meta agent sees it: its results on the visible instances and the suite in force. */
function arenaParent(record: GenerationRecord, state: ArenaState, visibleIds: readonly string[]): GenerationRecord {
  const results = state.results.get(record.id) ?? new Map();
  const instances: InstanceResult[] = [...visibleIds, ...state.suite.map((t) => t.id)].flatMap((id) => {
    const o = results.get(id);
    return o === undefined ? [] : [{ id, split: "visible" as const, score: o.score, value: null, feedback: o.feedback, error: null, durationMs: 0 }];
  });
  const stderr = record.evaluation?.stages.find((s) => s.stage !== "heldout")?.stderr ?? "";
  const arena = scoresIn(state, record.id, visibleIds).arena;
  return {
    ...record,
    evaluation: record.evaluation === null ? null : { ...record.evaluation, stages: [{ stage: "visible", instances, score: arena ?? 0, durationMs: 0, stderr }] },
    scores: { ...record.scores, visible: arena },
  };
}

/** Makes the round's remaining code children, updates the population and the suite, and writes the complete round record. */
export async function runCodePhase(input: CodePhaseInput, round: RoundRecord, made: readonly string[]): Promise<RoundRecord> {
  const { ctx, state, settings } = input;
  const visibleIds = ctx.task.visible.map((i) => i.id);
  const arena = (id: string): number => scoresIn(state, id, visibleIds).arena ?? 0;
  // One draw sequence per round; the draws of children made before a resume are replayed, not redone.
  const rng = createRng(generationSeed(ctx.runSeed ^ 0xc0de, round.round));
  const parents = Array.from({ length: settings.codePopulation }, () => tournamentPick(rng, state.codePopulation, arena)).slice(made.length);
  await makeChildren(input, parents, visibleIds);
  checkInterrupted(ctx.signal);

  const children = input.records.filter((r) => (parseGenerationId(r.id) ?? -1) >= round.codeFrom);
  for (const child of children) if (child.status.kind === "valid" && child.evaluation !== null) state.results.set(child.id, recordOutcomes(child));
  const eligible = children.filter((c) => c.status.kind === "valid" && c.evaluation !== null && approvalCleared(c)).map((c) => c.id);
  const grown = [...state.codePopulation, ...eligible];
  state.codePopulation = round.round % settings.tournamentEvery === 0 ? keepBest(grown, arena, settings.codePopulation) : grown;
  return completeRound(input, round, children, visibleIds);
}

/** One code child per parent, W at once, each selected, made on the round's task (visible + suite) and recorded. */
async function makeChildren(input: CodePhaseInput, parents: readonly string[], visibleIds: readonly string[]): Promise<void> {
  const { ctx, writer, state } = input;
  const roundCtx: RunContext = { ...ctx, task: taskWithSuite(ctx.task, state.suite) };
  await forEachLimited(parents, input.workers, async (parentId) => {
    checkInterrupted(ctx.signal);
    const known = new Map(input.records.map((r) => [r.id, r]));
    const parent = known.get(parentId) as GenerationRecord;
    const id = writer.allocateGenerationId();
    await writer.appendEvent({ type: "selected", at: new Date().toISOString(), generation: id, parent: parentId, strategy: "arena" });
    input.progress.childStarted();
    const plan = {
      id,
      parent: arenaParent(parent, state, visibleIds),
      lineage: lineageOf(input.records, parentId).map((g) => known.get(g) as GenerationRecord),
      seed: generationSeed(ctx.runSeed, parseGenerationId(id) ?? 0),
      sameTree: (hash: string) => input.records.find((r) => r.snapshotHash === hash && r.status.kind !== "duplicate") ?? null,
    };
    try {
      const record = await redoingLost(ctx, writer, id, () => runChild(roundCtx, writer, plan));
      input.records.push(record);
      input.records.sort((a, b) => compareIds(a.id, b.id));
      input.progress.recorded(record);
    } catch (error) {
      input.progress.childAbandoned();
      throw error;
    }
  });
}

/** Retires what every candidate passed, and writes the round's complete record with its event and line. */
async function completeRound(input: CodePhaseInput, round: RoundRecord, children: readonly GenerationRecord[], visibleIds: readonly string[]): Promise<RoundRecord> {
  const { writer, state } = input;
  const suiteBefore = state.suite;
  const end = retireAllPassed({ suite: state.suite, population: state.codePopulation, score: (c, t) => state.results.get(c)?.get(t)?.score, passScore: input.passScore });
  const standing = standingOf(state, state.codePopulation, visibleIds, new Map(input.records.map((r) => [r.id, r])));
  state.suite = end.suite;
  const inMatrix = [...new Set([...round.codePopulation, ...children.map((c) => c.id), ...state.codePopulation])];
  const complete: RoundRecord = {
    ...round,
    phase: "complete",
    children: children.map((c) => c.id),
    // The record keeps the suite this round's code ran on; the next round starts without what retired at its end.
    suite: suiteBefore,
    retired: [...round.retired, ...end.retired.map((r) => ({ ...r, when: "end" as const }))],
    codePopulation: state.codePopulation,
    testPopulation: state.testPopulation,
    matrix: matrixOf(state.results, inMatrix, suiteBefore),
    standing: { afterTests: round.standing.afterTests, afterCode: standing },
    updatedAt: new Date().toISOString(),
  };
  await writeRound(writer.runDir, complete);
  await writer.appendEvent({ type: "arena", at: complete.updatedAt, round: round.round, phase: "complete", suite: state.suite.length, admitted: 0, retired: end.retired.length });
  const fmt = (v: number | null): string => (v === null ? "-" : v.toFixed(4));
  input.progress.note(`round ${round.round}: best ${standing.best}: arena suite ${fmt(standing.suite)} (${fmt(round.standing.afterTests.suite)} when the tests landed), visible split ${fmt(standing.visible)}, held-out ${fmt(standing.heldout)}`);
  return complete;
}
