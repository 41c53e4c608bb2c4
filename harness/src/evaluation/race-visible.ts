/**
 * A racing evaluation of the visible split (race-bound.ts has the rule): stage 1, then the
 * rest of the split in the run's seeded order, streamed through one solve session and checked
 * after stage 1 and after each doubling batch. The child stops as soon as the upper bound on
 * its whole visible score falls below its target (its parent's whole visible score, or the
 * task's stage threshold when that is higher); the instances it did not need are not run, so
 * the compute goes to the children that can still win.
 */
import type { InstanceResult, RaceRecord, RaceSettings, RaceStop, StageResult } from "../results/index.js";
import type { TaskInstance } from "./grader.js";
import { raceCheckpoints, raceUpperBound, seededOrder } from "./race-bound.js";
import { runStage, type StageEnv } from "./run-stage.js";

/** What a race is run against. */
export interface RaceOptions {
  settings: RaceSettings;
  /** The parent's whole visible score; null: none (only the task's threshold is a target). */
  parentScore: number | null;
}

/** The visible part of an evaluation. */
export interface VisiblePart {
  stages: StageResult[];
  computeMs: number;
  passedStage1: boolean;
  coverage: { evaluated: number; of: number };
  race?: RaceRecord;
}

const mean = (rs: readonly InstanceResult[]): number => (rs.length === 0 ? 0 : rs.reduce((s, r) => s + r.score, 0) / rs.length);
const sum = (rs: readonly InstanceResult[]): number => rs.reduce((s, r) => s + r.score, 0);

/** The target a child must be able to reach, and the reason it stops when it cannot. */
function targetOf(parentScore: number | null, threshold: number): { target: number; stop: RaceStop } {
  if (parentScore !== null && parentScore >= threshold) return { target: parentScore, stop: "below_parent" };
  return { target: threshold, stop: "below_bar" };
}

/** Races `visible` (stage 1 first, `stage1Size` of them); the stages come back as stage1 and visible, like a staged run's. */
export async function raceVisible(visible: readonly TaskInstance[], stage1Size: number, threshold: number, env: StageEnv, options: RaceOptions): Promise<VisiblePart> {
  const first = visible.slice(0, stage1Size);
  const rest = seededOrder(visible.slice(stage1Size), env.seed);
  const points = new Set(raceCheckpoints(first.length, rest.length));
  const checks = Math.max(1, points.size - 1);
  const { target, stop } = targetOf(options.parentScore, threshold);
  let upper: number | null = null;
  let stopped: RaceStop = "complete";

  const stopAfter = (results: readonly InstanceResult[]): boolean => {
    const seen = results.length - first.length;
    if (seen < 0 || seen >= rest.length || !points.has(seen)) return false;
    const head = results.slice(0, first.length);
    const tally = { stage1Sum: sum(head), stage1Count: head.length, restSum: sum(results.slice(first.length)), restSeen: seen, restSize: rest.length };
    upper = raceUpperBound(tally, options.settings.delta, checks);
    if (upper >= target) return false;
    stopped = stop;
    return true;
  };

  const run = await runStage("visible", "visible", [...first, ...rest], env, stopAfter);
  const all = run.result.instances;
  const head = all.slice(0, first.length);
  const tail = all.slice(first.length);
  const headMs = head.reduce((s, r) => s + r.durationMs, 0);
  // One session served both stages: its stderr goes with the last stage that ran.
  const stages: StageResult[] = [{ stage: "stage1", instances: head, score: mean(head), durationMs: headMs, stderr: tail.length === 0 ? run.result.stderr : "" }];
  if (tail.length > 0) stages.push({ stage: "visible", instances: tail, score: mean(tail), durationMs: Math.max(0, run.result.durationMs - headMs), stderr: run.result.stderr });
  return {
    stages,
    computeMs: run.computeMs,
    passedStage1: mean(head) >= threshold,
    coverage: { evaluated: all.length, of: visible.length },
    race: { stop: stopped, target, upper, confidence: 1 - options.settings.delta },
  };
}
