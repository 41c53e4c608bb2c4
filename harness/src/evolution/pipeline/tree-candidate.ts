/**
 * The candidate pipeline from the moment a tree is out of its container: read and compared
 * with its parent, then the gates (policy → compile → signature → import) and the build.
 * candidate.ts puts the self-modification in front of it for children and test generations;
 * a ctx.evaluate draft (draft-run.ts) enters here with the meta agent's live workspace. The
 * self-modification serves drafts, so it stands above this file and never below it.
 */
import { join } from "node:path";
import type { LiveWorkspace } from "../../../../sandbox/src/index.js";
import { diffDirectories, type ArchiveWriter, type ChangedFile, type PhaseTimings } from "../../archive/index.js";
import { failure as fail, type Failure, type ValidationFailure } from "../../results/index.js";
import { checkInterrupted, checkKey, type CandidateContext } from "../context/index.js";
import { validateStep } from "./validate-step.js";

/** A candidate's tree as it came back, read and compared with its parent's. */
export interface CandidateTree {
  dir: string;
  snapshotHash: string;
  changes: ChangedFile[];
  patch: string;
}

/** What the gates need to know of a candidate, wherever its tree came from. */
export interface GateInput {
  ctx: CandidateContext;
  generationId: string;
  /** The parent's snapshot; null for a seed (validated without the empty-diff rule). */
  parentDir: string | null;
  /** A scratch folder of this candidate: the tree and its build go below it. */
  workDir: string;
  /** The containers' phase label of the checks (default "validate"). */
  phase?: string;
  /** An arena test generation: tester/index.ts must be there and export propose. */
  requireTester?: boolean;
  /** The first recorded generation with this tree (never the parent: its own tree is an empty change for the policy gate); a duplicate is not checked again. */
  sameTree?: (snapshotHash: string) => string | null;
  /** Where the candidate's events go (self_modified, checking, validated: children and the seed); none for drafts and testers. */
  events?: ArchiveWriter;
  /**
   * The candidate is evaluated next: its import gate runs in its first evaluation session
   * (evaluate-step.ts, draft-run.ts) instead of a container of its own.
   */
  deferImport?: boolean;
  /** A draft's generation: its build is held by it until the generation is over (BuildCache.release), not kept for the run. */
  heldBy?: string;
}

/** A candidate after the gates. */
export interface GatedCandidate {
  tree: CandidateTree | null;
  /** Null when the tree passed every gate (or is a duplicate). */
  failure: Failure | null;
  /** The earlier generation this tree is byte for byte; it was then not checked. */
  duplicateOf: string | null;
  /** The emitted JS (in the run's build cache), when the tree passed every gate. */
  buildDir: string | null;
  /** Passed every gate but the import, which the first evaluation session makes (`deferImport`). */
  importDeferred: boolean;
  /** Per phase: selfModify, extract and each gate that ran. */
  timings: PhaseTimings;
  /** Wall clock of the gates together; null when they did not run. */
  checkMs: number | null;
}

/** The folder below `workDir` that a candidate's tree is taken to. */
export function treeDirOf(workDir: string): string {
  return join(workDir, "tree");
}

/** The tree at `dir` read and compared with the parent's; a tree that cannot be read is the candidate's failure. */
export async function readTree(parentDir: string | null, dir: string): Promise<{ tree: CandidateTree | null; failure: Failure | null }> {
  const read = await diffDirectories(parentDir, dir);
  return read.ok ? { tree: { dir, snapshotHash: read.snapshotHash, changes: read.changes, patch: read.patch }, failure: null } : { tree: null, failure: fail("extract", "unreadable_tree", read.reason) };
}

/** A ctx.evaluate draft: the meta agent's workspace as it is now, taken out, read and gated. */
export async function workspaceCandidate(input: GateInput, workspace: LiveWorkspace): Promise<GatedCandidate> {
  const timings: PhaseTimings = {};
  const t = performance.now();
  const dir = treeDirOf(input.workDir);
  const taken = await workspace.take(dir);
  const obtained = taken.ok ? await readTree(input.parentDir, dir) : { tree: null, failure: fail("extract", "extraction_refused", taken.reason) };
  timings.extract = performance.now() - t;
  return gateCandidate(input, obtained, timings);
}

/** The tree through the gates, unless it failed on its way out or is a duplicate. */
export async function gateCandidate(input: GateInput, obtained: { tree: CandidateTree | null; failure: Failure | null }, timings: PhaseTimings): Promise<GatedCandidate> {
  const result: GatedCandidate = { ...obtained, duplicateOf: null, buildDir: null, importDeferred: false, timings, checkMs: null };
  if (result.failure !== null || result.tree === null) return result;
  result.duplicateOf = input.sameTree?.(result.tree.snapshotHash) ?? null;
  if (result.duplicateOf !== null) return result;
  const t = performance.now();
  const built = await checkAndBuild(input, result.tree, timings);
  result.checkMs = performance.now() - t;
  result.failure = built.failure;
  result.buildDir = built.buildDir;
  result.importDeferred = built.importDeferred;
  return result;
}

/** What the gates made of a tree. */
interface Checked {
  failure: ValidationFailure | null;
  buildDir: string | null;
  importDeferred: boolean;
}

/** Gates (policy → compile → signature → import) and, when they pass, the build in the run's cache. */
async function checkAndBuild(input: GateInput, tree: CandidateTree, timings: PhaseTimings): Promise<Checked> {
  const { ctx, events, generationId } = input;
  const checkedAs = checkKey(input.parentDir, input.requireTester === true);
  const earlier = ctx.builds.checked(checkedAs, tree.snapshotHash, input.heldBy);
  if (earlier !== null) {
    const reusedDir = await earlier;
    await events?.appendEvent({ type: "validated", at: new Date().toISOString(), generation: generationId, ok: true, stage: null, code: null });
    return { failure: null, buildDir: reusedDir, importDeferred: false };
  }
  const buildDir = join(input.workDir, "build");
  // Defence in depth behind the bounded checks: a tree that was being checked when the
  // harness died twice is not checked a third time, so no tree can crash-loop a run.
  const deaths = ctx.checkDeaths.get(tree.snapshotHash) ?? 0;
  await events?.appendEvent({ type: "checking", at: new Date().toISOString(), generation: generationId, snapshotHash: tree.snapshotHash });
  const validated =
    deaths >= 2
      ? { failure: fail("compile", "harness_died_checking", `the harness died ${deaths} times while checking this tree (same snapshot); it is not checked again`), timings: {} }
      : await validateStep({
          ctx,
          generationId,
          parentDir: input.parentDir,
          childDir: tree.dir,
          buildDir,
          ...(input.phase === undefined ? {} : { phase: input.phase }),
          ...(input.requireTester === true ? { requireTester: true } : {}),
          ...(input.deferImport === true ? { deferImport: true } : {}),
        });
  Object.assign(timings, validated.timings);
  checkInterrupted(ctx.signal);
  const stopped = validated.failure;
  await events?.appendEvent({ type: "validated", at: new Date().toISOString(), generation: generationId, ok: stopped === null, stage: stopped?.stage ?? null, code: stopped?.code ?? null });
  if (stopped !== null) return { failure: stopped, buildDir: null, importDeferred: false };
  const adopted = await ctx.builds.adopt(tree.snapshotHash, buildDir, input.heldBy);
  const importDeferred = "importDeferred" in validated && validated.importDeferred;
  if (!importDeferred) ctx.builds.markChecked(checkedAs, tree.snapshotHash);
  return { failure: null, buildDir: adopted, importDeferred };
}
