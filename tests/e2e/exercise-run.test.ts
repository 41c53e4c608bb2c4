/**
 * A task agent that is itself an LLM agent, end to end: the seed's ts-exercises solver asks
 * the model (the scripted server's exercise persona, through the real broker and openai
 * client) at solve time; its answers run only in code-test containers. The persona writes a
 * right answer only when the prompt carries the signature and the examples; the seed's
 * prompt here carries neither, and a prompt-engineering meta agent adds one per generation.
 * The score must rise each step, the task agent's tokens must be budgeted and reported apart
 * from the meta agent's, and `evolve replay` must reproduce the lineage from the transcripts
 * alone (no request reaches the server). Without a model the run is refused in one line.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRunRecord, readSolveTranscript, readTranscript, type GenerationRecord } from "../../harness/src/archive/index.js";
import { formatSummary, startRun, type RunSummary } from "../../harness/src/evolution/index.js";
import { replayLineage } from "../../harness/src/replay/index.js";
import { EvolveError } from "../../harness/src/kernel/index.js";
import { leftoversOfRun, memorySink, readConsistentRun } from "../evolution/run-helpers.js";
import { exercisePersona, type ExercisePersona } from "../support/exercise-persona.js";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";

const ROOT = resolve(import.meta.dirname, "../..");
/** Visible: each has tests that expect null, so a null-answering stub scores above 0 but below 1. */
const VISIBLE = ["median", "second-largest", "convert-base"];
const HELDOUT = ["parse-duration", "build-order"];
const RUN = "exercise-e2e";

let env: TestEngine;
let work: string;
let server: ScriptedOpenAIServer;
let persona: ExercisePersona;

/** The seed agent with a bare prompt (no signature, no examples) and the prompt-engineering meta agent. */
async function agentTree(): Promise<string> {
  const dir = join(work, "agent");
  await cp(join(ROOT, "seed-agent/task"), join(dir, "task"), { recursive: true });
  await cp(join(import.meta.dirname, "fixtures/prompt-agent/meta"), join(dir, "meta"), { recursive: true });
  const solver = join(dir, "task/ts-exercises.ts");
  const source = await readFile(solver, "utf8");
  expect(source).toContain("includeSignature: true");
  await writeFile(solver, source.replace("includeSignature: true", "includeSignature: false"));
  return dir;
}

/** ts-exercises with a few instances, so a generation costs a handful of containers. */
async function smallTask(): Promise<string> {
  const dir = join(work, "tasks/ts-exercises");
  await cp(join(ROOT, "tasks/ts-exercises"), dir, { recursive: true, filter: (src) => !src.endsWith(".test.ts") });
  const manifest = JSON.parse(await readFile(join(dir, "task.json"), "utf8")) as Record<string, unknown>;
  await writeFile(join(dir, "task.json"), JSON.stringify({ ...manifest, stages: { stage1Size: 1, threshold: 0 }, evaluationTimeoutMs: 600_000 }));
  await writeFile(join(dir, "visible.json"), JSON.stringify(VISIBLE.map((id) => ({ id }))));
  await writeFile(join(dir, "heldout.json"), JSON.stringify(HELDOUT.map((id) => ({ id }))));
  return dir;
}

function io(environment: Record<string, string | undefined>) {
  return { sink: memorySink(), signal: new AbortController().signal, env: environment, engine: env.engine, session: env.session };
}

let summary: RunSummary;
let generations: GenerationRecord[];
let taskDir: string;
let agentDir: string;

beforeAll(async () => {
  env = await testEngine();
  work = await mkdtemp(join(tmpdir(), "evolve-e2e-exercises-"));
  persona = exercisePersona();
  server = await startScriptedOpenAIServer(persona.script);
  [agentDir, taskDir] = await Promise.all([agentTree(), smallTask()]);
  const run = io({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-test-exercises" });
  summary = await startRun({ agent: agentDir, task: taskDir, generations: 2, workers: 1, seed: 5, out: work, runId: RUN, model: "scripted-model", evaluations: 1, solveBudgetTokens: 200_000 }, run);
  const read = await readConsistentRun(join(work, RUN));
  expect(read.problems).toEqual([]);
  generations = read.generations;
}, 900_000);

afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

describe("ts-exercises with a model at solve time", { timeout: 900_000 }, () => {
  it("raises the score step by step as the meta agent puts the signature, then the examples, into the prompt", () => {
    expect(generations.map((g) => [g.id, g.status.kind])).toEqual([
      ["g0000", "valid"],
      ["g0001", "valid"],
      ["g0002", "valid"],
    ]);
    const [seed, first, second] = generations as [GenerationRecord, GenerationRecord, GenerationRecord];
    // Each tried its change on stage 1 first (ctx.evaluate; the task agent asked the model for the draft too).
    expect(first.summary).toMatch(/^prompt: includeSignature → true \(answers did not compile .*\); draft stage 1 0\.14/);
    expect(second.summary).toMatch(/^prompt: includeExamples → true \(answers compiled but were wrong.*\); draft stage 1 1$/);
    expect(seed.scores.visible).toBe(0);
    expect(first.scores.visible).toBeGreaterThan(0);
    expect(first.scores.visible).toBeLessThan(1);
    expect(second.scores).toMatchObject({ visible: 1, heldout: 1 });
    expect(seed.evaluation?.stages[0]?.instances[0]?.feedback).toMatch(/^compile error: .*has no exported member/);
    // Each instance was asked of the model once per evaluation (3 visible + 2 held-out, three
    // generations), and stage 1's once more for each child's draft.
    expect(persona.tally).toEqual({ bare: 5, signatureOnly: 6, full: 6, other: 0 });
    expect(summary.end).toBe("finished");
  });

  it("budgets and reports the task agent's tokens apart from the meta agent's", async () => {
    const runDir = join(work, RUN);
    const record = await readRunRecord(runDir);
    expect(record.ok && record.value.config.limits.solveBudgetTokens).toBe(200_000);
    for (const g of generations) {
      const drafts = g.parent === null ? 0 : 1;
      expect(g.tokens, g.id).toEqual({ prompt: 0, completion: 0 });
      expect(g.solve, g.id).toMatchObject({ calls: 5 + drafts, draftEntries: drafts });
      expect((g.solve?.tokens.prompt ?? 0) + (g.solve?.tokens.completion ?? 0), g.id).toBeGreaterThan(0);
      const solveTranscript = await readSolveTranscript(runDir, g.id);
      expect(solveTranscript.entries.filter((e) => e["outcome"] === "ok"), g.id).toHaveLength(5 + drafts);
      const metaTranscript = (await readTranscript(runDir, g.id)).entries;
      expect(metaTranscript.filter((e) => e.kind === "llm"), g.id).toEqual([]);
      expect(metaTranscript.filter((e) => e.kind === "evaluate"), g.id).toHaveLength(drafts);
      // A draft's containers: the stage's solve session (which made the import check: it loads
      // the whole agent first) and one code-test container.
      if (drafts > 0) expect(g.evaluateCalls, g.id).toMatchObject({ counted: 1, containers: 2 });
    }
    expect(summary.tokens).toBe(0);
    expect(summary.solve?.calls).toBe(17);
    const line = formatSummary(summary).find((l) => l.startsWith("llm: "));
    expect(line).toMatch(/^llm: model scripted-model; meta agent 0 tokens, .*; task agent \d+ tokens in 17 calls at solve time/);
    expect(leftoversOfRun(RUN)).toEqual({ containers: 0, volumes: 0 });
  });

  it("replays the lineage from the transcripts alone: same patches, same scores, no request to the model", async () => {
    const before = server.chatRequests().length;
    const steps: string[] = [];
    const report = await replayLineage({ runDir: join(work, RUN), generation: "g0002", all: true, engine: env.engine, session: env.session, onStep: (l) => steps.push(l) });
    expect(report.verdict, steps.join("\n")).toEqual({ kind: "reproduced" });
    expect(report.scores.map((s) => s.generation)).toEqual(["g0000", "g0001", "g0002"]);
    for (const s of report.scores) expect(s.solveNote, s.generation).toBeUndefined();
    expect(server.chatRequests().length).toBe(before);
  });

  it("refuses a run without a model in one line, before any container starts", async () => {
    const refused = startRun({ agent: agentDir, task: taskDir, generations: 2, out: work, runId: "exercise-offline" }, io({}));
    await expect(refused).rejects.toThrow(EvolveError);
    await expect(refused).rejects.toThrow(/^task ts-exercises needs a model \(its task agent asks the LLM while it solves\), and this run has none: /);
    expect(leftoversOfRun("exercise-offline")).toEqual({ containers: 0, volumes: 0 });
  });
});
