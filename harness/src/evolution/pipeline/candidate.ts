/**
 * The one candidate pipeline: self-modify → extract → validate → build. A child, an arena
 * test generation and a ctx.evaluate draft are each a candidate; they differ only in where
 * the tree comes from (the meta agent's container, its live workspace, a folder already
 * read) and in what happens after the build (evaluate, propose, a draft's evaluation).
 * Every way the agent can fail comes back as one `Failure` with its stage; only the harness
 * failing throws.
 */
import { join } from "node:path";
import type { LiveWorkspace } from "../../../../sandbox/src/index.js";
import { diffDirectories, type ArchiveWriter, type ChangedFile, type PhaseTimings } from "../../archive/index.js";
import { failure as fail, type Failure, type ValidationFailure } from "../../results/index.js";
import { checkInterrupted, checkKey, type CandidateContext, type SolveLlm } from "../context/index.js";
import { selfModifyStep, type SelfModifyInput, type SelfModifyResult } from "./self-modify-step.js";
import { validateStep } from "./validate-step.js";

/** A candidate's tree as it came back, read and compared with its parent's. */
export interface CandidateTree {
  dir: string;
  snapshotHash: string;
  changes: ChangedFile[];
  patch: string;
}

/** Where the candidate's tree comes from. */
export type CandidateSource =
  /** The parent's meta agent rewrites a copy of its tree in a fresh container. */
  | { kind: "self-modify"; parentBuildDir: string; seed: number; request: SelfModifyInput["request"]; evaluations?: number; solveLlm?: SolveLlm }
  /** A ctx.evaluate draft: the meta agent's workspace as it is now. */
  | { kind: "workspace"; workspace: LiveWorkspace }
  /** A tree already on the host and read (the seed, a branch point). */
  | { kind: "read"; tree: CandidateTree };

export interface CandidateInput {
  ctx: CandidateContext;
  generationId: string;
  /** The parent's snapshot; null for a seed (validated without the empty-diff rule). */
  parentDir: string | null;
  source: CandidateSource;
  /** A scratch folder of this candidate: the tree and its build go below it. */
  workDir: string;
  /** The containers' phase label of the checks (default "validate"). */
  phase?: string;
  /** An arena test generation: tester/index.ts must be there and export propose. */
  requireTester?: boolean;
  /** The first recorded generation with this tree (never the parent: its own tree is an empty change for the policy gate); a duplicate is not checked again. */
  sameTree?: (snapshotHash: string) => string | null;
  /** Where the self_modified, checking and validated events go (children and the seed); none for drafts and testers. */
  events?: ArchiveWriter;
  /**
   * The candidate is evaluated next: its import gate runs in its first evaluation session
   * (evaluate-step.ts, draft-run.ts) instead of a container of its own.
   */
  deferImport?: boolean;
  /** A draft's generation: its build is held by it until the generation is over (BuildCache.release), not kept for the run. */
  heldBy?: string;
}

export interface Candidate {
  /** The meta agent's run, for a self-modify source. */
  modified: SelfModifyResult | null;
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

/** Runs one candidate through the pipeline. */
export async function runCandidate(input: CandidateInput): Promise<Candidate> {
  const timings: PhaseTimings = {};
  const obtained = await obtainTree(input, timings);
  const result: Candidate = { ...obtained, duplicateOf: null, buildDir: null, importDeferred: false, timings, checkMs: null };
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

/** The tree, from its source: self-modify and take it out, take the live workspace out, or as given. */
async function obtainTree(input: CandidateInput, timings: PhaseTimings): Promise<{ modified: SelfModifyResult | null; tree: CandidateTree | null; failure: Failure | null }> {
  const { source, ctx } = input;
  if (source.kind === "read") return { modified: null, tree: source.tree, failure: null };
  const dir = join(input.workDir, "tree");
  let modified: SelfModifyResult | null = null;
  let failure: Failure | null = null;
  if (source.kind === "self-modify") {
    modified = await selfModifyStep({
      ctx: source.evaluations === undefined ? ctx : { ...ctx, evaluations: source.evaluations },
      generationId: input.generationId,
      parentSnapshotDir: input.parentDir ?? "",
      parentBuildDir: source.parentBuildDir,
      takeTo: dir,
      seed: source.seed,
      request: source.request,
      ...(source.solveLlm === undefined ? {} : { solveLlm: source.solveLlm }),
    });
    timings.selfModify = modified.durationMs;
    checkInterrupted(ctx.signal);
    const error = modified.failure?.message ?? null;
    await input.events?.appendEvent({ type: "self_modified", at: new Date().toISOString(), generation: input.generationId, ok: error === null, error, durationMs: modified.durationMs });
    failure = modified.failure;
    if (failure === null && !modified.treeTaken) failure = fail("extract", "no_tree", "the meta agent's tree did not come back");
  }
  const t = performance.now();
  if (source.kind === "workspace") {
    const taken = await source.workspace.take(dir);
    if (!taken.ok) failure = fail("extract", "extraction_refused", taken.reason);
  }
  let tree: CandidateTree | null = null;
  if (failure === null || (modified !== null && modified.treeTaken)) {
    const read = await diffDirectories(input.parentDir, dir);
    if (read.ok) tree = { dir, snapshotHash: read.snapshotHash, changes: read.changes, patch: read.patch };
    else failure ??= fail("extract", "unreadable_tree", read.reason);
  }
  timings.extract = performance.now() - t;
  return { modified, tree, failure };
}

/** What the gates made of a tree. */
interface Checked {
  failure: ValidationFailure | null;
  buildDir: string | null;
  importDeferred: boolean;
}

/** Gates (policy → compile → signature → import) and, when they pass, the build in the run's cache. */
async function checkAndBuild(input: CandidateInput, tree: CandidateTree, timings: PhaseTimings): Promise<Checked> {
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
