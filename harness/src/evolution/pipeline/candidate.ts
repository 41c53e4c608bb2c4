/**
 * The one candidate pipeline: self-modify → extract → validate → build. A child, an arena
 * test generation and a ctx.evaluate draft are each a candidate; they differ only in where
 * the tree comes from (the meta agent's container, its live workspace, a folder already
 * read) and in what happens after the build (evaluate, propose, a draft's evaluation).
 * This file is the self-modification in front of tree-candidate.ts, where a draft enters.
 * Every way the agent can fail comes back as one `Failure` with its stage; only the harness
 * failing throws.
 */
import type { PhaseTimings } from "../../archive/index.js";
import { failure as fail, type Failure } from "../../results/index.js";
import { checkInterrupted, type SolveLlm } from "../context/index.js";
import { selfModifyStep, type SelfModifyInput, type SelfModifyResult } from "./self-modify-step.js";
import { gateCandidate, readTree, treeDirOf, type CandidateTree, type GatedCandidate, type GateInput } from "./tree-candidate.js";

export type { CandidateTree } from "./tree-candidate.js";

/** Where the candidate's tree comes from (a ctx.evaluate draft's, the live workspace, enters at tree-candidate.ts). */
export type CandidateSource =
  /** The parent's meta agent rewrites a copy of its tree in a fresh container. */
  | { kind: "self-modify"; parentBuildDir: string; seed: number; request: SelfModifyInput["request"]; evaluations?: number; solveLlm?: SolveLlm }
  /** A tree already on the host and read (the seed, a branch point). */
  | { kind: "read"; tree: CandidateTree };

export interface CandidateInput extends GateInput {
  source: CandidateSource;
}

export interface Candidate extends GatedCandidate {
  /** The meta agent's run, for a self-modify source. */
  modified: SelfModifyResult | null;
}

/** Runs one candidate through the pipeline. */
export async function runCandidate(input: CandidateInput): Promise<Candidate> {
  const timings: PhaseTimings = {};
  const { source } = input;
  if (source.kind === "read") return { modified: null, ...(await gateCandidate(input, { tree: source.tree, failure: null }, timings)) };
  const { modified, ...obtained } = await selfModified(input, source, timings);
  return { modified, ...(await gateCandidate(input, obtained, timings)) };
}

/** The parent's meta agent rewrites its tree, which is then taken out and read. */
async function selfModified(
  input: CandidateInput,
  source: Extract<CandidateSource, { kind: "self-modify" }>,
  timings: PhaseTimings,
): Promise<{ modified: SelfModifyResult; tree: CandidateTree | null; failure: Failure | null }> {
  const { ctx } = input;
  const dir = treeDirOf(input.workDir);
  const modified = await selfModifyStep({
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
  let failure: Failure | null = modified.failure;
  if (failure === null && !modified.treeTaken) failure = fail("extract", "no_tree", "the meta agent's tree did not come back");
  const t = performance.now();
  let tree: CandidateTree | null = null;
  // A tree that came back is read even when the report failed: the record keeps its diff.
  if (modified.treeTaken) {
    const read = await readTree(input.parentDir, dir);
    tree = read.tree;
    failure ??= read.failure;
  }
  timings.extract = performance.now() - t;
  return { modified, tree, failure };
}
