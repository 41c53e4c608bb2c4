/**
 * The suite rules, pure (README.md, "A proposal's way in" 5–6 and "Retirement"): which tests
 * the oracle accepted enter the suite, and which tests leave it.
 */
import type { TaskInstance } from "../evaluation/index.js";
import { capText } from "../text/index.js";
import type { ArenaTest } from "./arena-record.js";
import type { DiscardCode } from "./discard-code.js";

/** A candidate's score on a test; undefined (never ran it) counts as 0, a failure. */
export type ScoreOf = (candidate: string, test: string) => number | undefined;

export interface Retirement {
  id: string;
  reason: string;
}

export interface AdmitInput {
  suite: ArenaTest[];
  /** Tests the oracle accepted this round, in proposal order; the population has run them. */
  fresh: ArenaTest[];
  visible: readonly TaskInstance[];
  population: string[];
  score: ScoreOf;
  passScore: number;
  cap: number;
}

export interface Admission {
  /** The suite in force after admission and the cap, in order (old tests first). */
  suite: ArenaTest[];
  /** Fresh tests that entered; one the cap pushed out at once is also in `retired`. */
  admitted: string[];
  discarded: { id: string; code: DiscardCode; reason: string }[];
  retired: Retirement[];
}

/** Reasons go into records capped at 300 characters. */
const REASON_CHARS = 300;
const passedByAll = (population: readonly string[]): string => capText(`every candidate of the code population passes it (${population.join(", ")})`, REASON_CHARS);

/** JSON with object keys sorted, so key order does not make two instances differ. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** An instance's content: everything but its id. */
function contentOf(instance: object): string {
  const { id: _id, ...rest } = instance as Record<string, unknown>;
  return canonical(rest);
}

function failing(population: readonly string[], test: string, score: ScoreOf, passScore: number): string[] {
  return population.filter((c) => (score(c, test) ?? 0) < passScore);
}

/** Admits each fresh test that is new and fails some candidate, then enforces the cap. */
export function admitTests(input: AdmitInput): Admission {
  const { population, score, passScore } = input;
  const seen = new Map<string, string>();
  for (const v of input.visible) seen.set(contentOf(v), `visible instance ${v.id}`);
  for (const t of input.suite) if (!seen.has(contentOf(t.instance))) seen.set(contentOf(t.instance), `test ${t.id} of the suite`);
  const admitted: ArenaTest[] = [];
  const discarded: Admission["discarded"] = [];
  for (const test of input.fresh) {
    const content = contentOf(test.instance);
    const same = seen.get(content);
    if (same !== undefined) {
      discarded.push({ id: test.id, code: "duplicate", reason: `same instance as ${same}` });
      continue;
    }
    seen.set(content, `${test.id}, proposed earlier this round`);
    if (failing(population, test.id, score, passScore).length === 0) {
      discarded.push({ id: test.id, code: "not_discriminating", reason: passedByAll(population) });
      continue;
    }
    admitted.push(test);
  }
  const { suite, retired } = enforceCap([...input.suite, ...admitted], input);
  return { suite, admitted: admitted.map((t) => t.id), discarded, retired };
}

/** Over the cap, the tests failed by the fewest candidates go first; ties, the oldest (round, then position). */
function enforceCap(all: ArenaTest[], input: AdmitInput): { suite: ArenaTest[]; retired: Retirement[] } {
  const over = all.length - input.cap;
  if (over <= 0) return { suite: all, retired: [] };
  const ranked = all
    .map((test, position) => ({ test, position, failedBy: failing(input.population, test.id, input.score, input.passScore).length }))
    .sort((a, b) => a.failedBy - b.failedBy || a.test.round - b.test.round || a.position - b.position)
    .slice(0, over);
  const gone = new Set(ranked.map((r) => r.test.id));
  return {
    suite: all.filter((t) => !gone.has(t.id)),
    retired: ranked.map((r) => ({ id: r.test.id, reason: `over the suite cap of ${input.cap}: failed by ${r.failedBy} of ${input.population.length} candidates` })),
  };
}

/** Retires the tests every candidate of the population passes (none when the population is empty). */
export function retireAllPassed(input: { suite: ArenaTest[]; population: string[]; score: ScoreOf; passScore: number }): { suite: ArenaTest[]; retired: Retirement[] } {
  const { population, score, passScore } = input;
  if (population.length === 0) return { suite: input.suite, retired: [] };
  const passed = new Set(input.suite.filter((t) => failing(population, t.id, score, passScore).length === 0).map((t) => t.id));
  return {
    suite: input.suite.filter((t) => !passed.has(t.id)),
    retired: [...passed].map((id) => ({ id, reason: passedByAll(population) })),
  };
}
