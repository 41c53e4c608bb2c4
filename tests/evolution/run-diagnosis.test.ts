/**
 * A run that cannot improve says why: generation 0 failing every visible instance for one
 * reason is said with the reason and what to do (on the live line, as a progress line and in
 * the summary), and grader errors are counted on the live line and named in the summary.
 */
import { describe, expect, it } from "vitest";
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import { formatSummary, Progress, summarise } from "../../harness/src/evolution/index.js";
import { stuckReason } from "../../harness/src/evolution/view/run-diagnosis.js";
import { evaluated, evaluationResult, generationRecord, instanceResult, invalidAt, stageResult } from "../support/records.js";

const UNKNOWN = 'error: solve threw: this agent does not know the task "word-freq"';

function seedFailing(reasons: readonly string[], heldout: string | null = null): GenerationRecord {
  const visible = reasons.map((reason, i) => instanceResult({ id: `v${i}`, score: 0, value: null, feedback: `no answer: ${reason}`, error: reason }));
  const stages = [stageResult("stage1", visible.slice(0, 2)), stageResult("visible", visible.slice(2))];
  if (heldout !== null) stages.push(stageResult("heldout", [instanceResult({ id: "h0", split: "heldout", score: 0, value: null, feedback: heldout, error: heldout })]));
  return generationRecord({ ...evaluated(evaluationResult(stages)), summary: "seed" });
}

function child(id: string, instances: ReturnType<typeof instanceResult>[]): GenerationRecord {
  return generationRecord({ id, parent: "g0000", depth: 1, ...evaluated(evaluationResult([stageResult("stage1", instances)])), summary: `child ${id}` });
}

const info = { runId: "run-x", runDir: "/tmp/run-x", end: "finished" as const, requested: 2, model: null, wallMs: 1000, report: { path: "/tmp/run-x/report.html" }, task: "word-freq" };

function lines(records: GenerationRecord[], live = false): { text: string; line: string } {
  const chunks: string[] = [];
  const progress = new Progress({ isTTY: live, write: (t) => void chunks.push(t) }, 2, [], { context: { task: "word-freq", offline: true } });
  for (const record of records) progress.recorded(record);
  const line = progress.line();
  progress.stop();
  return { text: chunks.join(""), line };
}

describe("a start that fails every visible instance the same way", () => {
  const seed = seedFailing([UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]);

  it("is said when the seed is recorded, with the reason and what to do, and stays on the live line", () => {
    const { text, line } = lines([seed], true);
    expect(text).toContain(`g0000 scored 0 on every visible instance it ran (4), each for the same reason: ${UNKNOWN}\n`);
    expect(text).toMatch(/what to do: the offline strategy only tunes the agent's knobs and cannot write a solver: give a model \(--model, with OPENAI_BASE_URL\).*evolve new agent DIR, add a case for "word-freq" to DIR\/task\/index\.ts/);
    expect(line).toMatch(/\| g0000 scores 0 everywhere: error: solve threw: this agent does not know the[^|"]*…$/);
  });

  it("is the summary's reason for no improvement", () => {
    const empty = generationRecord({ id: "g0001", parent: "g0000", depth: 1, ...invalidAt("policy", "empty_diff", "no change"), summary: null });
    const text = formatSummary(summarise([seed, empty], info)).join("\n");
    expect(text).toContain(`why no improvement: g0000 scored 0 on every visible instance it ran (4), each for the same reason: ${UNKNOWN}`);
    expect(text).toMatch(/ {2}what to do: the offline strategy .*give a model/);
  });

  it("with a model, says the model must write the solver", () => {
    const text = formatSummary(summarise([seed], { ...info, model: "gpt-x" })).join("\n");
    expect(text).toMatch(/what to do: children improve only if the model writes a solver/);
  });

  it("quotes a thrown error's message without its stack", () => {
    const thrown = 'error: solve threw: Error: this agent does not know the task "word-freq" at solve (file:///work/build/task/index.js:13:19) at async main (file:///opt/evolve/runner/main.js:40:3)';
    expect(stuckReason(seedFailing([thrown, thrown]))?.reason).toBe('error: solve threw: Error: this agent does not know the task "word-freq"');
  });

  it("counts reasons that differ only in numbers as one (a step, a time)", () => {
    expect(stuckReason(seedFailing(["timeout: no answer within 100 ms", "timeout: no answer within 250 ms"]))?.reason).toBe("timeout: no answer within 100 ms");
  });

  it("is not said when the seed scores somewhere, fails in several ways, or only held-out fails", () => {
    const scoresOnce = generationRecord({ ...evaluated(evaluationResult([stageResult("stage1", [instanceResult({ id: "a", score: 0.2 }), instanceResult({ id: "b", score: 0, error: UNKNOWN })])])) });
    expect(stuckReason(scoresOnce)).toBeNull();
    expect(stuckReason(seedFailing([UNKNOWN, "crash: exited with code 1"]))).toBeNull();
    const passing = generationRecord({ ...evaluated(evaluationResult([stageResult("stage1", [instanceResult({ id: "a" })]), stageResult("heldout", [instanceResult({ id: "h", split: "heldout", score: 0, error: UNKNOWN })])])) });
    expect(stuckReason(passing)).toBeNull();
    expect(summarise([passing], info).diagnosis.stuck).toBeNull();
    expect(formatSummary(summarise([passing], info)).join("\n")).not.toMatch(/why no improvement|grader errors/);
  });
});

describe("grader errors", () => {
  const seed = generationRecord({ summary: "seed" });
  const broken = (id: string) =>
    child(id, [
      instanceResult({ id: "game-1", score: 0, value: null, feedback: "grader error: Cannot read properties of undefined (reading 'x')", error: "grader error: Cannot read properties of undefined (reading 'x')" }),
      instanceResult({ id: "game-2", score: 0, value: null, feedback: "grader error: boom", error: "grader error: boom" }),
      instanceResult({ id: "game-3", score: 1 }),
    ]);

  it("are counted on the live line and said once as a line", () => {
    const { text, line } = lines([seed, broken("g0001"), broken("g0002")], true);
    expect(line).toContain("| grader errors 4 |");
    expect(text.match(/scored 0 because the grader failed/g)).toHaveLength(1);
    expect(text).toContain("g0001: 2 instances scored 0 because the grader failed (game-1: grader error: Cannot read properties of undefined (reading 'x')); fix grader.ts");
  });

  it("are named in the summary", () => {
    const text = formatSummary(summarise([seed, broken("g0001"), broken("g0002")], info)).join("\n");
    expect(text).toContain("grader errors: 4 instances in 2 generations scored 0 because the grader failed (e.g. g0001 game-1: grader error: Cannot read properties of undefined (reading 'x'))");
    expect(text).toMatch(/what to do: fix grader\.ts so it never throws on an answer/);
  });
});
