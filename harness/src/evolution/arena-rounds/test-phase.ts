/**
 * The test phase of an arena round: test generations propose, the oracle judges, the code
 * population runs what the oracle accepted, and what breaks a candidate joins the suite.
 * The test generations are recorded, then the round record (phase "tests"): from then on a
 * killed run resumes at this round's code phase.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ArenaTestView, ImproveRequest, InstanceFeedback, Json, ProposeRequest } from "@evolve/contract";
import { generationPaths, type ArchiveWriter, type ArenaSettings, type GenerationRecord } from "../../archive/index.js";
import {
  admitTests,
  arenaPaths,
  formatTesterId,
  judgeProposals,
  keepBest,
  matrixOf,
  recordTester,
  tournamentPick,
  writeRound,
  type ArenaState,
  type ArenaTest,
  type ProposalOutcome,
  type ProposalVerdict,
  type RoundRecord,
  type TesterRecord,
} from "../../arena/index.js";
import { evaluateCandidate, type Oracle, type TaskInstance } from "../../evaluation/index.js";
import { EvolveError } from "../../kernel/index.js";
import type { Rng } from "../../selection/index.js";
import { capText } from "../../text/index.js";
import { forEachLimited, standingOf } from "./standing.js";
import type { Progress } from "../view/index.js";
import { redoingLost } from "../steps/index.js";
import { checkInterrupted, type RunContext } from "../context/index.js";
import { generationSeed } from "../context/index.js";
import { runTester, type TesterOutcome } from "../steps/index.js";

const FEEDBACK_CHARS = 300;

export interface TestsPhaseInput {
  ctx: RunContext;
  writer: ArchiveWriter;
  settings: ArenaSettings;
  state: ArenaState;
  round: number;
  /** Every code generation recorded so far, by id. */
  generations: ReadonlyMap<string, GenerationRecord>;
  oracle: Oracle;
  rng: Rng;
  progress: Progress;
  workers: number;
}

/** The suite as a test agent sees it: proposals and pass counts, never the oracle's verdicts. */
function suiteView(state: ArenaState, passScore: number): { suite: ArenaTestView[]; population: ProposeRequest["population"] } {
  const fails = (candidate: string, test: string): boolean => (state.results.get(candidate)?.get(test)?.score ?? 0) < passScore;
  const suite = state.suite.map((t) => {
    const failedBy = state.codePopulation.filter((c) => fails(c, t.id)).length;
    return { id: t.id, proposal: t.proposal, passedBy: state.codePopulation.length - failedBy, failedBy };
  });
  const population = state.codePopulation.map((c) => ({ id: c, failing: state.suite.filter((t) => fails(c, t.id)).map((t) => t.id) }));
  return { suite, population };
}

/** What a tester's meta agent is told: its parent's proposals and what became of each. */
function testerImproveRequest(input: TestsPhaseInput, id: string, parent: TesterRecord, seed: number, llmTokens: number | null, deadline: number): ImproveRequest {
  const { manifest } = input.ctx.task;
  const instances: InstanceFeedback[] = parent.proposals.map((p) => ({
    id: `proposal-${p.index + 1}`,
    score: p.outcome === "admitted" ? 1 : 0,
    feedback: p.outcome === "admitted" ? `entered the suite as ${p.test}` : capText(`discarded (${p.code}): ${p.reason}`, FEEDBACK_CHARS),
  }));
  const chain: TesterRecord[] = [];
  for (let t: TesterRecord | undefined = parent; t !== undefined; t = t.parent === null ? undefined : input.state.testers.get(t.parent)) chain.unshift(t);
  const rate = (t: TesterRecord): number | null => (t.proposals.length === 0 ? null : t.admitted / t.proposals.length);
  return {
    task: { name: manifest.name, description: manifest.description, metric: "proposals that enter the arena suite (break a current code candidate)" },
    role: "tester",
    generation: { id, parent: parent.id, depth: chain.length },
    seed,
    feedback: { score: rate(parent), instances, stderr: "" },
    lineage: chain.map((t) => ({ id: t.id, score: rate(t), summary: capText(t.summary ?? "", 300) })),
    budget: { llmTokens, deadline, evaluations: 0 },
  };
}

/** Runs the test phase of `input.round`; returns the round record it wrote and updates `input.state`. */
export async function runTestsPhase(input: TestsPhaseInput): Promise<RoundRecord> {
  const { ctx, state, settings, round, oracle } = input;
  const passScore = oracle.passScore ?? 1;
  const view = suiteView(state, passScore);
  // Who proposes: the seed's tree in the first round, else children of the test population drawn by tournament.
  const fitness = (id: string): number => state.testers.get(id)?.admitted ?? 0;
  const plans = state.testPopulation.length === 0 ? [null] : Array.from({ length: settings.testPopulation }, () => tournamentPick(input.rng, state.testPopulation, fitness));
  // Scratch folders of the testers: their trees are copied into the archive when recorded, then go.
  const workDirs: string[] = [];
  try {
    const outcomes = await proposeAll(input, plans, view, workDirs);
    checkInterrupted(ctx.signal);
    // Judge every tester's proposals, one tester at a time (each judge worker may take its heap cap); what the oracle accepted becomes a candidate test.
    const verdicts: ProposalVerdict[][] = [];
    for (const o of outcomes) verdicts.push(await judgeProposals(ctx.task, o.proposals, { idPrefix: `arena-${o.record.id}` }));
    const fresh: ArenaTest[] = verdicts.flatMap((list, k) => list.flatMap((v) => (v.outcome === "accepted" ? [{ id: v.id, instance: v.instance, proposal: v.proposal, proposedBy: outcomes[k]!.record.id, round, verdict: v.verdict }] : [])));
    checkInterrupted(ctx.signal);
    await runPopulationOn(input, fresh);
    checkInterrupted(ctx.signal);
    const admission = admitTests({
      suite: state.suite,
      fresh,
      visible: ctx.task.visible,
      population: state.codePopulation,
      score: (candidate, test) => state.results.get(candidate)?.get(test)?.score,
      passScore,
      cap: settings.suiteCap,
    });
    const records = await recordTesters(input, outcomes, verdicts, admission);
    state.suite = admission.suite;
    const grown = [...state.testPopulation, ...records.filter((r) => r.status.kind === "valid").map((r) => r.id)];
    state.testPopulation = round % settings.tournamentEvery === 0 || state.testPopulation.length === 0 ? keepBest(grown, fitness, settings.testPopulation) : grown;
    const roundRecord = await writeTestsRound(input, records, admission);
    const proposed = records.reduce((n, r) => n + r.proposals.length, 0);
    input.progress.note(`round ${round}: ${records.map((r) => r.id).join(", ")} proposed ${proposed}, the oracle accepted ${fresh.length}, ${admission.admitted.length} broke a candidate and entered; suite ${state.suite.length}${admission.retired.length > 0 ? ` (${admission.retired.length} retired)` : ""}`);
    return roundRecord;
  } finally {
    await Promise.all(workDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

/** Each tester's record, with what became of each of its proposals, written to the archive. */
async function recordTesters(input: TestsPhaseInput, outcomes: readonly TesterOutcome[], verdicts: readonly ProposalVerdict[][], admission: ReturnType<typeof admitTests>): Promise<TesterRecord[]> {
  const records: TesterRecord[] = outcomes.map((o, k) => {
    const proposals: ProposalOutcome[] = verdicts[k]!.map((v) => {
      if (v.outcome === "discarded") return { index: v.index, outcome: "discarded", code: v.code, reason: v.reason };
      const refused = admission.discarded.find((d) => d.id === v.id);
      return refused === undefined ? { index: v.index, outcome: "admitted", test: v.id } : { index: v.index, outcome: "discarded", code: refused.code, reason: refused.reason };
    });
    return { ...o.record, proposals, admitted: proposals.filter((p) => p.outcome === "admitted").length, createdAt: new Date().toISOString() };
  });
  for (const [k, record] of records.entries()) {
    const o = outcomes[k]!;
    const logs = Object.fromEntries(Object.entries(o.logs).filter(([, v]) => v !== "").map(([n, v]) => [n, capText(v, 64 * 1024)]));
    await recordTester(input.writer.runDir, record, { snapshotDir: o.snapshotDir, patch: o.patch, transcript: o.transcript, logs });
    input.state.testers.set(record.id, record);
  }
  input.state.nextTester += records.length;
  return records;
}

/** The round's record after its test phase, written, with its event. */
async function writeTestsRound(input: TestsPhaseInput, records: readonly TesterRecord[], admission: ReturnType<typeof admitTests>): Promise<RoundRecord> {
  const { ctx, writer, state, round } = input;
  const roundRecord: RoundRecord = {
    schemaVersion: 1,
    round,
    phase: "tests",
    testers: records.map((r) => r.id),
    codeFrom: writer.nextGenerationNumber,
    children: [],
    suite: state.suite,
    admitted: admission.admitted,
    retired: admission.retired.map((r) => ({ ...r, when: "admission" as const })),
    codePopulation: state.codePopulation,
    testPopulation: state.testPopulation,
    matrix: matrixOf(state.results, state.codePopulation, state.suite),
    standing: { afterTests: standingOf(state, state.codePopulation, ctx.task.visible.map((i) => i.id), input.generations), afterCode: null },
    updatedAt: new Date().toISOString(),
  };
  await writeRound(writer.runDir, roundRecord);
  await writer.appendEvent({ type: "arena", at: roundRecord.updatedAt, round, phase: "tests", suite: state.suite.length, admitted: admission.admitted.length, retired: admission.retired.length });
  return roundRecord;
}

/** Each planned test generation is made (or, for the seed's tester, taken as it is) and proposes; in plan order. */
async function proposeAll(input: TestsPhaseInput, plans: readonly (string | null)[], view: ReturnType<typeof suiteView>, workDirs: string[]): Promise<TesterOutcome[]> {
  const { ctx, writer, state, round, oracle } = input;
  const seedHash = input.generations.get("g0000")?.snapshotHash;
  if (seedHash == null) throw new EvolveError("internal", "an arena run needs the seed generation's snapshot");
  const outcomes: TesterOutcome[] = [];
  await forEachLimited(plans, input.workers, async (parentId, k) => {
    const id = formatTesterId(state.nextTester + k);
    const parent = parentId === null ? null : (state.testers.get(parentId) as TesterRecord);
    const snapshotDir = parent === null ? generationPaths(writer.runDir, "g0000").snapshot : arenaPaths(writer.runDir).tester(parent.id).snapshot;
    const snapshotHash = parent === null ? seedHash : (parent.snapshotHash as string);
    const seed = generationSeed(ctx.runSeed ^ 0x5eed_7e57, state.nextTester + k);
    const proposeRequest: ProposeRequest = {
      task: { name: ctx.task.manifest.name, description: ctx.task.manifest.description, metric: ctx.task.manifest.metric },
      proposal: { description: oracle.description, perRound: oracle.limits.perRound, maxBytes: oracle.limits.maxBytes },
      round,
      generation: { id, parent: parent?.id ?? null },
      seed,
      // The grader parsed these from JSON files; a round trip keeps exactly what JSON can say.
      visible: ctx.task.visible.map((instance) => JSON.parse(JSON.stringify(instance)) as Json),
      ...view,
    };
    const workDir = await mkdtemp(join(ctx.workRoot, `${id}-`));
    workDirs.push(workDir);
    outcomes[k] = await redoingLost(ctx, writer, id, async () => {
      const outcome = await runTester(ctx, {
        id,
        round,
        seed,
        parent,
        parentSnapshotDir: snapshotDir,
        parentSnapshotHash: snapshotHash,
        improveRequest: (tokens, deadline) => testerImproveRequest(input, id, parent as TesterRecord, seed, tokens, deadline),
        proposeRequest,
        workDir,
      });
      ctx.engines.settle(id);
      return outcome;
    }, { event: false });
  });
  return outcomes;
}

/** Every candidate of the code population runs the new tests once (no LLM, the run's evaluation seed). */
async function runPopulationOn(input: TestsPhaseInput, tests: readonly ArenaTest[]): Promise<void> {
  if (tests.length === 0) return;
  const { ctx, state } = input;
  const instances: TaskInstance[] = tests.map((t) => t.instance);
  await forEachLimited(state.codePopulation, input.workers, (candidate) => redoingLost(ctx, input.writer, candidate, async () => {
    const record = input.generations.get(candidate);
    if (record?.snapshotHash == null) throw new EvolveError("internal", `population member ${candidate} has no snapshot`);
    const build = await ctx.builds.get(generationPaths(input.writer.runDir, candidate).snapshot, record.snapshotHash);
    const evaluation = await evaluateCandidate({
      engine: ctx.sandbox.engine,
      image: ctx.sandbox.image,
      task: { ...ctx.task, visible: instances, heldout: [] },
      buildDir: build,
      labels: { session: ctx.sandbox.session, run: ctx.runId, generation: candidate, phase: "arena" },
      runtime: ctx.sandbox.runtime,
      seed: ctx.evaluationSeed,
      subset: instances,
      heldout: false,
      llmAvailable: false,
    });
    const known = state.results.get(candidate) ?? new Map();
    for (const i of evaluation.stages.flatMap((s) => s.instances)) {
      known.set(i.id, { score: Math.min(1, Math.max(0, i.score)), feedback: capText(i.error === null ? i.feedback : `${i.feedback} (error: ${i.error})`, FEEDBACK_CHARS) });
    }
    // An engine lost under these containers throws here, and the candidate runs the tests again elsewhere.
    ctx.engines.settle(candidate);
    state.results.set(candidate, known);
  }, { event: false }));
}
