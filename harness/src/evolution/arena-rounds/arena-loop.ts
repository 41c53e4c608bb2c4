/**
 * `evolve run --arena`: rounds of a test phase (test generations propose tests that must
 * break a current code candidate) and a code phase (code children selected on visible +
 * suite). The archive is the only state: a killed run resumes at the phase it was in.
 */
import type { ArchiveWriter, ArenaSettings, GenerationRecord } from "../../archive/index.js";
import { arenaStateOf, readArena, sweepArenaTemporaries } from "../../arena/index.js";
import { EvolveError } from "../../kernel/index.js";
import { createRng } from "../../selection/index.js";
import { runCodePhase } from "./code-phase.js";
import { runTestsPhase } from "./test-phase.js";
import type { Progress } from "../view/index.js";
import { StepInterrupted, type RunContext } from "../context/index.js";
import type { LoopEnd } from "../context/index.js";
import { generationSeed } from "../context/index.js";

export interface ArenaLoopInput {
  ctx: RunContext;
  writer: ArchiveWriter;
  /** Every code generation recorded so far; the loop adds what it records. */
  records: GenerationRecord[];
  settings: ArenaSettings;
  progress: Progress;
  workers: number;
}

export async function runArenaLoop(input: ArenaLoopInput): Promise<LoopEnd> {
  const { ctx, writer, settings, progress } = input;
  const oracle = ctx.task.oracle;
  if (oracle === null) throw new EvolveError("invalid_task", `task ${ctx.task.manifest.name} has no oracle, so it cannot run in an arena`, { hint: "export an oracle from its grader.ts (README, \"Your own task\")" });
  const seed = input.records.find((r) => r.parent === null);
  if (seed === undefined || seed.status.kind !== "valid" || seed.snapshotHash === null) return "no_valid_parent";

  await sweepArenaTemporaries(writer.runDir);
  const arena = await readArena(writer.runDir);
  for (const problem of arena.problems) progress.note(`warning: skipped unreadable arena record ${problem.path}: ${problem.reason}`);
  const state = arenaStateOf(arena.rounds, arena.testers, input.records, seed);
  if (state.abandonedTesters.length > 0) progress.note(`test generations ${state.abandonedTesters.join(", ")} were recorded by a test phase that did not finish: they are kept, and in no round`);
  const passScore = oracle.passScore ?? 1;

  try {
    for (;;) {
      const round = state.position.round;
      if (round > settings.rounds) return "finished";
      if (ctx.signal.aborted) return "interrupted";
      if (ctx.llm.runLedger.exhausted) return "budget_spent";
      const generations = new Map(input.records.map((r) => [r.id, r]));
      const tested =
        state.position.kind === "code"
          ? { record: state.position.record, made: state.position.made }
          : {
              record: await runTestsPhase({ ctx, writer, settings, state, round, generations, oracle, rng: createRng(generationSeed(ctx.runSeed ^ 0x7e57, round)), progress, workers: input.workers }),
              made: [] as string[],
            };
      await runCodePhase({ ctx, writer, settings, state, records: input.records, passScore, progress, workers: input.workers }, tested.record, tested.made);
      state.position = { kind: "start", round: round + 1 };
    }
  } catch (error) {
    if (error instanceof StepInterrupted || ctx.signal.aborted) return "interrupted";
    throw error;
  }
}
