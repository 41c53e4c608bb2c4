/**
 * `evolve replay`: does a lineage reproduce from the archive alone?
 * 1. rebuild every snapshot on the path from the root's patch chain, checked against the recorded hashes;
 * 2. re-run each self-modification with the recorded LLM answers and the same seed; same patch?
 * 3. re-validate and re-evaluate the tip (or every step) and compare the scores.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { EvolveError } from "../kernel/index.js";
import type { GenerationRecord, Tree } from "../archive/index.js";
import { applyPatch, lineageOf, readPatch, readRun, rebuildSnapshot, writeTree } from "../archive/index.js";
import { readArena, suiteOfGeneration, taskWithSuite } from "../arena/index.js";
import { recordedEvaluationPlan, type RunContext } from "../evolution/index.js";
import { createReplayContext, type ReplayEnvironment } from "./replay-context.js";
import { replayScores, type ScoreCheck } from "./replay-scores.js";
import { replaySelfModify, type SelfModifyCheck } from "./replay-self-modify.js";

export interface ReplayOptions extends ReplayEnvironment {
  runDir: string;
  generation: string;
  /** Re-evaluate every step on the path, not only the tip. */
  all?: boolean;
  /** Largest score difference still called reproduced (default 1e-9). */
  tolerance?: number;
  /** Called as each step finishes, for live output. */
  onStep?: (line: string) => void;
}

export type ReplayVerdict =
  | { kind: "reproduced" }
  | { kind: "diverged"; generation: string; how: string }
  | { kind: "drifted"; generation: string; drift: number };

/** Everything a replay found. */
export interface ReplayReport {
  readonly lineage: string[];
  readonly rebuild: { ok: true } | { ok: false; generation: string; reason: string };
  readonly selfModify: SelfModifyCheck[];
  readonly scores: ScoreCheck[];
  readonly verdict: ReplayVerdict;
  readonly tolerance: number;
}

/** Trees along the path, rebuilt from the patches (rebuildSnapshot has already checked them). */
async function materialise(runDir: string, lineage: readonly string[], treesDir: string): Promise<Map<string, string>> {
  const dirs = new Map<string, string>();
  let tree: Tree = new Map();
  for (const id of lineage) {
    const applied = applyPatch(tree, await readPatch(runDir, id));
    if (!applied.ok) throw new EvolveError("archive_corrupt", `${id}: patch stopped applying during replay: ${applied.reason}`);
    tree = applied.tree;
    const dir = join(treesDir, id);
    await writeTree(dir, tree);
    dirs.set(id, dir);
  }
  return dirs;
}

/** Replays the lineage of one generation; harness failures throw, non-reproduction is the verdict. */
export async function replayLineage(options: ReplayOptions): Promise<ReplayReport> {
  const tolerance = options.tolerance ?? 1e-9;
  const say = options.onStep ?? (() => undefined);
  const contents = await readRun(options.runDir);
  if (contents.run === null) throw new EvolveError("archive_corrupt", `${options.runDir}: run.json is unreadable (${contents.problems[0]?.reason ?? "unknown"})`);
  const byId = new Map(contents.generations.map((g) => [g.id, g]));
  if (!byId.has(options.generation)) {
    const corrupt = contents.problems.some((p) => p.path.includes(`${options.generation}`));
    throw new EvolveError(corrupt ? "archive_corrupt" : "unknown_generation", corrupt ? `the record of ${options.generation} is unreadable` : `no generation ${options.generation} in ${options.runDir}`);
  }
  const lineage = lineageOf(contents.generations, options.generation);
  const records = lineage.map((id) => byId.get(id) as GenerationRecord);
  say(`lineage ${lineage.join(" → ")}`);

  const rebuilt = await rebuildSnapshot(options.runDir, contents.generations, options.generation);
  if (!rebuilt.ok) {
    say(`1. rebuild: FAILED at ${rebuilt.generation}: ${rebuilt.reason}`);
    return {
      lineage,
      rebuild: { ok: false, generation: rebuilt.generation, reason: rebuilt.reason },
      selfModify: [],
      scores: [],
      verdict: { kind: "diverged", generation: rebuilt.generation, how: rebuilt.reason },
      tolerance,
    };
  }
  say(`1. rebuild: ${lineage.length} snapshot(s) rebuilt from the patches match their recorded hashes`);

  const ctx = await createReplayContext(contents.run, options);
  try {
    const trees = await materialise(options.runDir, lineage, join(ctx.workRoot, "trees"));
    say(`2. self-modification (${contents.run.config.model === null ? "offline strategy" : `recorded answers of ${contents.run.config.model}`}, same seeds):`);
    const selfModify = await replaySelfModifications(ctx, options, contents.generations, records, trees);
    const targets = options.all === true ? records : records.slice(-1);
    say(`3. re-validate and re-evaluate ${options.all === true ? "every step" : "the tip"}:`);
    const scores = await replayTargets(ctx, options, contents.generations, targets, trees);
    return { lineage, rebuild: { ok: true }, selfModify, scores, verdict: verdictOf(selfModify, scores, tolerance), tolerance };
  } finally {
    await ctx.builds.dispose().catch(() => undefined);
    await ctx.validator.close().catch(() => undefined);
    await rm(ctx.workRoot, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Step 2 for every child of the lineage, each from its parent's rebuilt tree. */
async function replaySelfModifications(ctx: RunContext, options: ReplayOptions, generations: readonly GenerationRecord[], records: readonly GenerationRecord[], trees: Map<string, string>): Promise<SelfModifyCheck[]> {
  const say = options.onStep ?? (() => undefined);
  const checks: SelfModifyCheck[] = [];
  for (let i = 1; i < records.length; i++) {
    const child = records[i] as GenerationRecord;
    const work = join(ctx.workRoot, `${child.id}-self-modify`);
    await mkdir(work, { recursive: true });
    const check = await replaySelfModify(ctx, options.runDir, generations, records.slice(0, i), child, trees.get(child.parent ?? "") ?? "", work);
    checks.push(check);
    say(`   ${check.generation}  ${check.same ? "same" : "DIVERGED"}: ${check.detail}`);
    await rm(work, { recursive: true, force: true });
  }
  if (records.length === 1) say("   (the root has no self-modification)");
  return checks;
}

/** Step 3 for each target: validated and evaluated again, on the task it was judged on. */
async function replayTargets(ctx: RunContext, options: ReplayOptions, generations: readonly GenerationRecord[], targets: readonly GenerationRecord[], trees: Map<string, string>): Promise<ScoreCheck[]> {
  const byId = new Map(generations.map((g) => [g.id, g]));
  const say = options.onStep ?? (() => undefined);
  const arena = await readArena(options.runDir);
  const scores: ScoreCheck[] = [];
  for (const g of targets) {
    const dir = trees.get(g.id);
    if (g.snapshotHash === null || dir === undefined) {
      say(`   ${g.id}  no snapshot to validate (recorded ${g.status.kind === "invalid" ? g.status.stage : "none"})`);
      continue;
    }
    // A duplicate was never judged itself: the replay is held to the generation it duplicates.
    const original = g.status.kind === "duplicate" ? byId.get(g.status.of) : undefined;
    const reference = original === undefined ? g : { ...g, status: original.status, scores: original.scores };
    // A code generation of an arena run was judged on its round's task: the visible split and that round's suite.
    const suite = suiteOfGeneration(arena.rounds, g.id);
    const judgedOn = suite.length === 0 ? ctx : { ...ctx, task: taskWithSuite(ctx.task, suite) };
    // Evaluated as it was: raced against the same parent score, held-out skipped where it was.
    const judged = original ?? g;
    const plan = recordedEvaluationPlan(ctx, judged, judged.parent === null ? null : (byId.get(judged.parent) ?? null));
    // A duplicate was evaluated as its original: the task agent's answers are the original's.
    const recorded = { runDir: options.runDir, generations, solveOf: judged };
    const check = await replayScores(judgedOn, reference, dir, g.parent === null ? null : (trees.get(g.parent) ?? null), join(ctx.workRoot, `${g.id}-evaluate`), { plan, recorded });
    scores.push(check);
    say(`   ${g.id}  recorded ${check.recordedStatus}, replayed ${check.replayedStatus}${check.solveNote === undefined ? "" : ` (${check.solveNote})`}`);
  }
  return scores;
}

function verdictOf(selfModify: readonly SelfModifyCheck[], scores: readonly ScoreCheck[], tolerance: number): ReplayVerdict {
  const diverged = selfModify.find((c) => !c.same);
  if (diverged !== undefined) return { kind: "diverged", generation: diverged.generation, how: diverged.detail };
  const status = scores.find((s) => !s.sameStatus);
  if (status !== undefined) return { kind: "diverged", generation: status.generation, how: `recorded ${status.recordedStatus}, replayed ${status.replayedStatus}` };
  const worst = scores.reduce<ScoreCheck | null>((w, s) => (w === null || s.drift > w.drift ? s : w), null);
  if (worst !== null && worst.drift > tolerance) return { kind: "drifted", generation: worst.generation, drift: worst.drift };
  return { kind: "reproduced" };
}
