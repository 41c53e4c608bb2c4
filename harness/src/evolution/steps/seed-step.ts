/**
 * Generation 0: the seed (or the branch point of a --from run), validated without the
 * non-empty-diff rule and evaluated like any child. Its patch is against the empty tree.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { EvolveError } from "../../kernel/index.js";
import { diffDirectories, formatGenerationId, type ArchiveWriter, type GenerationRecord, type PhaseTimings } from "../../archive/index.js";
import { buildRecord, recordGeneration } from "./record-generation.js";
import { generationSeed, openSolveLlm, type RunContext } from "../context/index.js";
import { SEED_EVALUATION, evaluateTimed, runCandidate } from "../pipeline/index.js";

const NO_USAGE = { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, estimated: false };

/** Validates, evaluates and records `agentDir` as g0000. */
export async function runSeedGeneration(ctx: RunContext, writer: ArchiveWriter, agentDir: string, summary: string): Promise<GenerationRecord> {
  const started = performance.now();
  const id = formatGenerationId(0);
  const timings: PhaseTimings = {};
  const work = await mkdtemp(join(ctx.workRoot, `${id}-`));
  const solveLlm = openSolveLlm(ctx);
  solveLlm.beginEvaluation();
  try {
    const t = performance.now();
    const diff = await diffDirectories(null, agentDir);
    if (!diff.ok) throw new EvolveError("invalid_agent", `the agent tree ${agentDir} does not read as a tree: ${diff.reason}`, { hint: "evolve check --agent DIR lists what is wrong" });
    timings.materialise = performance.now() - t;
    const tree = { dir: agentDir, snapshotHash: diff.snapshotHash, changes: diff.changes, patch: diff.patch };
    const candidate = await runCandidate({ ctx, generationId: id, parentDir: null, source: { kind: "read", tree }, workDir: work, events: writer, deferImport: true });
    Object.assign(timings, candidate.timings);
    // The seed is evaluated whole: it is the first bar its children race against.
    const evaluated = candidate.buildDir === null ? null : await evaluateTimed({ ctx, generationId: id, buildDir: candidate.buildDir, importDeferred: candidate.importDeferred, plan: SEED_EVALUATION, solveLlm }, timings);
    solveLlm.close();
    // A load that failed in the first evaluation session is the seed's import failure.
    const failure = evaluated?.failure ?? candidate.failure;
    const evaluation = evaluated?.evaluation ?? null;
    const engines = ctx.engines.settle(id);
    const built = buildRecord({
      id,
      parent: null,
      depth: 0,
      failure,
      evaluation,
      summary,
      changes: diff.changes,
      usage: NO_USAGE,
      model: null,
      snapshotHash: diff.snapshotHash,
      seed: generationSeed(ctx.runSeed, 0),
      timings,
      started,
      solve: solveLlm.usage(),
    });
    const record = engines === undefined ? built : { ...built, engines };
    return await recordGeneration(writer, record, { snapshotDir: agentDir, patch: diff.patch, transcript: [], solveTranscript: solveLlm.transcript(), logs: {} });
  } finally {
    solveLlm.close();
    await rm(work, { recursive: true, force: true });
  }
}
