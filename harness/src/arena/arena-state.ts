/**
 * Where an arena run stands, rebuilt from its records alone (a killed run resumes from the
 * archive): the suite and populations in force, every candidate's outcomes, and what is
 * left of the current round.
 */
import type { GenerationRecord } from "../archive/index.js";
import { parseGenerationId } from "../archive/index.js";
import type { Task, TaskInstance } from "../evaluation/index.js";
import { capText } from "../text/index.js";
import type { ArenaTest, OutcomeMatrix, RoundRecord, TestOutcome, TesterRecord } from "./arena-record.js";
import { parseTesterId } from "./arena-record.js";

const FEEDBACK_CHARS = 300;

/** The round to work on and how far it got. */
export type ArenaPosition =
  | { kind: "start"; round: number }
  /** The test phase of `round` is recorded; its code phase has `made` children so far. */
  | { kind: "code"; round: number; record: RoundRecord; made: string[] };

export interface ArenaState {
  position: ArenaPosition;
  suite: ArenaTest[];
  codePopulation: string[];
  testPopulation: string[];
  /** Candidate → instance or test id → outcome (visible instances from the records, tests from the rounds). */
  results: Map<string, Map<string, TestOutcome>>;
  testers: Map<string, TesterRecord>;
  /** Test generations recorded by a test phase that never finished: not in any round, skipped. */
  abandonedTesters: string[];
  nextTester: number;
}

/** A candidate's visible outcomes (stage 1 and visible stages) as its record holds them; arena tests included when it ran them. */
export function recordOutcomes(record: GenerationRecord): Map<string, TestOutcome> {
  const outcomes = new Map<string, TestOutcome>();
  for (const stage of record.evaluation?.stages ?? []) {
    if (stage.stage === "heldout") continue;
    for (const i of stage.instances) {
      if (i.split !== "visible") continue;
      const feedback = i.error === null ? i.feedback : `${i.feedback} (error: ${i.error})`;
      outcomes.set(i.id, { score: Math.min(1, Math.max(0, i.score)), feedback: capText(feedback, FEEDBACK_CHARS) });
    }
  }
  return outcomes;
}

/** The round record's matrix: each candidate's known outcome on each test (unknown ones left out); mergeMatrix reads it back. */
export function matrixOf(results: ReadonlyMap<string, ReadonlyMap<string, TestOutcome>>, candidates: readonly string[], tests: readonly ArenaTest[]): OutcomeMatrix {
  return Object.fromEntries(
    candidates.map((c) => [c, Object.fromEntries(tests.flatMap((t) => {
      const o = results.get(c)?.get(t.id);
      return o === undefined ? [] : [[t.id, o]];
    }))]),
  );
}

/** Adds the matrix's outcomes to `results`. */
export function mergeMatrix(results: Map<string, Map<string, TestOutcome>>, matrix: OutcomeMatrix): void {
  for (const [candidate, row] of Object.entries(matrix)) {
    const known = results.get(candidate) ?? new Map<string, TestOutcome>();
    for (const [test, outcome] of Object.entries(row)) known.set(test, outcome);
    results.set(candidate, known);
  }
}

/** The suite the next round starts from: the round's suite without what retired at its end. */
export function suiteAfter(round: RoundRecord): ArenaTest[] {
  const gone = new Set(round.retired.filter((r) => r.when === "end").map((r) => r.id));
  return round.suite.filter((t) => !gone.has(t.id));
}

/** Rebuilds the state; `seed` is generation 0 (the first code population and tester). */
export function arenaStateOf(rounds: readonly RoundRecord[], testers: readonly TesterRecord[], generations: readonly GenerationRecord[], seed: GenerationRecord): ArenaState {
  const results = new Map<string, Map<string, TestOutcome>>();
  for (const g of generations) if (g.evaluation !== null) results.set(g.id, recordOutcomes(g));
  for (const r of rounds) mergeMatrix(results, r.matrix);
  const byId = new Map(testers.map((t) => [t.id, t]));
  const listed = new Set(rounds.flatMap((r) => r.testers));
  const nextTester = Math.max(0, ...testers.map((t) => (parseTesterId(t.id) ?? 0) + 1));
  const abandonedTesters = testers.filter((t) => !listed.has(t.id)).map((t) => t.id);

  const last = rounds.at(-1);
  if (last === undefined) {
    return { position: { kind: "start", round: 1 }, suite: [], codePopulation: [seed.id], testPopulation: [], results, testers: byId, abandonedTesters, nextTester };
  }
  if (last.phase === "tests") {
    const made = generations.filter((g) => (parseGenerationId(g.id) ?? -1) >= last.codeFrom).map((g) => g.id);
    return { position: { kind: "code", round: last.round, record: last, made }, suite: last.suite, codePopulation: last.codePopulation, testPopulation: last.testPopulation, results, testers: byId, abandonedTesters, nextTester };
  }
  return { position: { kind: "start", round: last.round + 1 }, suite: suiteAfter(last), codePopulation: last.codePopulation, testPopulation: last.testPopulation, results, testers: byId, abandonedTesters, nextTester };
}

/**
 * The task a code child of an arena round is made and judged on: the visible split followed by
 * the suite's instances (README.md, "Selection"); the held-out split is the task's own.
 */
export function taskWithSuite(task: Task, suite: readonly ArenaTest[]): Task {
  return { ...task, visible: [...task.visible, ...suite.map((t) => t.instance)] };
}

/** The suite a code generation was judged with: its round's, or none (the seed, a plain run). */
export function suiteOfGeneration(rounds: readonly RoundRecord[], generation: string): ArenaTest[] {
  return rounds.find((r) => r.children.includes(generation))?.suite ?? [];
}
