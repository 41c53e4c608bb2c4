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
import { runStage, type StageEnv, type StageRun } from "./run-stage.js";

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

/** The order a race runs the visible split in: stage 1 (the first `stage1Size`), then the rest in the run's seeded order. */
export function raceOrder<T extends { id: string }>(visible: readonly T[], stage1Size: number, seed: number): T[] {
  return [...visible.slice(0, stage1Size), ...seededOrder(visible.slice(stage1Size), seed)];
}

/** The race's stop rule over the results so far (runStage's `stopAfter`), and the record it leaves. */
function raceRule(first: number, restSize: number, threshold: number, options: RaceOptions): { stopAfter: (results: readonly InstanceResult[]) => boolean; record: () => RaceRecord } {
  const points = new Set(raceCheckpoints(first, restSize));
  const checks = Math.max(1, points.size - 1);
  const { target, stop } = targetOf(options.parentScore, threshold);
  let upper: number | null = null;
  let stopped: RaceStop = "complete";
  const stopAfter = (results: readonly InstanceResult[]): boolean => {
    const seen = results.length - first;
    if (seen < 0 || seen >= restSize || !points.has(seen)) return false;
    const head = results.slice(0, first);
    const tally = { stage1Sum: sum(head), stage1Count: head.length, restSum: sum(results.slice(first)), restSeen: seen, restSize };
    upper = raceUpperBound(tally, options.settings.delta, checks);
    if (upper >= target) return false;
    stopped = stop;
    return true;
  };
  return { stopAfter, record: () => ({ stop: stopped, target, upper, confidence: 1 - options.settings.delta }) };
}

/** One session's run of the race, as stage1 and visible like a staged run's. */
function racePart(run: StageRun, first: number, of: number, threshold: number, race: RaceRecord): VisiblePart {
  const all = run.result.instances;
  const head = all.slice(0, first);
  const tail = all.slice(first);
  const headMs = head.reduce((s, r) => s + r.durationMs, 0);
  // One session served both stages: its stderr goes with the last stage that ran.
  const stages: StageResult[] = [{ stage: "stage1", instances: head, score: mean(head), durationMs: headMs, stderr: tail.length === 0 ? run.result.stderr : "" }];
  if (tail.length > 0) stages.push({ stage: "visible", instances: tail, score: mean(tail), durationMs: Math.max(0, run.result.durationMs - headMs), stderr: run.result.stderr });
  return { stages, computeMs: run.computeMs, passedStage1: mean(head) >= threshold, coverage: { evaluated: all.length, of }, race };
}

/** Races `visible` (stage 1 first, `stage1Size` of them); the stages come back as stage1 and visible, like a staged run's. */
export async function raceVisible(visible: readonly TaskInstance[], stage1Size: number, threshold: number, env: StageEnv, options: RaceOptions): Promise<VisiblePart> {
  const ordered = raceOrder(visible, stage1Size, env.seed);
  const first = Math.min(stage1Size, visible.length);
  const rule = raceRule(first, visible.length - first, threshold, options);
  const run = await runStage("visible", "visible", ordered, env, rule.stopAfter);
  return racePart(run, first, visible.length, threshold, rule.record());
}

/**
 * The race a child would have run, read off a whole run of its visible split in race order (a
 * ctx.evaluate draft of the same tree, on the same seed and limits: draft-run.ts): the rule
 * checked at each of the race's checkpoints over the same results. Null when the race would
 * have stopped early (the child is then raced afresh: a stopped race's record must be one the
 * child ran) or when `whole` is not the whole split in race order.
 */
export function raceOver(whole: StageRun, visible: readonly TaskInstance[], stage1Size: number, threshold: number, seed: number, options: RaceOptions): VisiblePart | null {
  const ordered = raceOrder(visible, stage1Size, seed);
  const results = whole.result.instances;
  if (results.length !== ordered.length || results.some((r, i) => r.id !== ordered[i]?.id)) return null;
  const first = Math.min(stage1Size, visible.length);
  const rule = raceRule(first, visible.length - first, threshold, options);
  // Fed one result at a time, as runStage feeds a race (the rule reads only at its checkpoints).
  const seen: InstanceResult[] = [];
  for (const result of results) {
    seen.push(result);
    if (rule.stopAfter(seen)) return null;
  }
  return racePart(whole, first, visible.length, threshold, rule.record());
}
