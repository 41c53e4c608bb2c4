/**
 * Score tampering on a real task (email-validation) with its real grader. The candidate
 * answers "all valid" and meanwhile claims a perfect score every way it can: results files,
 * forged grader and split files in its own tree, the runner's JSON patched in memory, fake
 * protocol lines on stdout. The recorded score must be the trusted grader's, computed from
 * the answers alone; forged protocol lines cost the instance (score 0, protocol).
 */
import { rm } from "node:fs/promises";
import { expect } from "vitest";
import type { Json } from "@evolve/contract";
import { evaluateCandidate, loadTask, type TaskInstance } from "../../../harness/src/evaluation/index.js";
import { writeJsBuild } from "../../support/js-build.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const TASK_DIR = new URL("../../../tasks/email-validation/", import.meta.url).pathname;

const FORGER = `import * as fs from "node:fs";
const perfect = '{"score":1,"visibleScore":1,"heldoutScore":1,"passedStage1":true}';
// Patch the runner's JSON in memory: every message it prints claims a perfect score.
const realStringify = JSON.stringify;
JSON.stringify = function (value, ...rest) {
  if (value && typeof value === "object" && value.type === "result") value = { ...value, score: 1, visibleScore: 1, heldoutScore: 1 };
  return realStringify.call(JSON, value, ...rest);
};
const allTrue = (r) => ({ labels: r.addresses ? r.addresses.map(() => true) : [] });
function tamper() {
  for (const p of ["/work/results.json", "/work/build/results.json", "/work/evaluation.json", "/tmp/score.json"]) {
    try { fs.writeFileSync(p, perfect); } catch {}
  }
  const t = "/work/build/tasks/email-validation";
  fs.mkdirSync(t, { recursive: true });
  fs.writeFileSync(t + "/grader.js", "export const grader = { instanceSchema: { safeParse: (x) => ({ success: true, data: x }) }, grade: async () => ({ score: 1, value: 1, feedback: 'forged' }) };");
  fs.writeFileSync(t + "/grader.ts", "export const grader = { grade: async () => ({ score: 1, value: 1, feedback: 'forged' }) };");
  fs.writeFileSync(t + "/task.json", '{"name":"email-validation","stages":{"stage1Size":1,"threshold":0}}');
  fs.writeFileSync(t + "/visible.json", "[]");
  fs.writeFileSync(t + "/heldout.json", "[]");
  try { fs.writeFileSync("/opt/evolve/runner/main.js", "// forged"); } catch {}
  console.log(realStringify({ type: "result", id: 1, ok: true, value: perfect })); // console goes to stderr
}
export async function solve(input) {
  tamper();
  return input.addresses.map(() => true);
}
`;

const FUTURE_ID = `import * as fs from "node:fs";
export async function solve(input) {
  // A result for a call that has not been made yet, then a plain score claim.
  fs.writeSync(1, JSON.stringify({ type: "result", id: 2, ok: true, value: input.addresses.map(() => true) }) + "\\n");
  return input.addresses.map(() => true);
}
`;

const SCORE_CLAIM = `import * as fs from "node:fs";
export async function solve(input) {
  fs.writeSync(1, JSON.stringify({ type: "score", score: 1, visibleScore: 1 }) + "\\n");
  return input.addresses.map(() => true);
}
`;

export async function scoreTampering(c: CaseContext): Promise<CaseVerdict> {
  const task = await loadTask(TASK_DIR);
  // The trusted grader's verdict on the candidate's real answers, computed on the host.
  const expected = async (instance: TaskInstance): Promise<number> => {
    const outcome = await task.grader.grade(instance, async (input: Json) => ({ ok: true, value: ((input as { addresses: string[] }).addresses).map(() => true), durationMs: 0 }), { seed: 0 });
    return outcome.score;
  };
  const builds = await Promise.all([FORGER, FUTURE_ID, SCORE_CLAIM].map((source) => writeJsBuild({ task: source })));
  const [forger, futureId, scoreClaim] = builds as [string, string, string];
  const evaluate = (buildDir: string, full: boolean) =>
    evaluateCandidate({
      engine: c.env.engine, image: c.env.image, task, buildDir, labels: c.labels, runtime: c.runtime, seed: 3,
      visible: full ? "full" : "stage1", heldout: full, instanceTimeoutMs: 30_000, maxRestarts: 1,
    });
  try {
    const started = Date.now();
    const [a, b, s] = await Promise.all([evaluate(forger, true), evaluate(futureId, false), evaluate(scoreClaim, false)]);
    const containMs = Date.now() - started;
    const all = a.stages.flatMap((st) => st.instances);
    expect(all).toHaveLength(task.visible.length + task.heldout.length);
    for (const r of all) {
      const instance = [...task.visible, ...task.heldout].find((i) => i.id === r.id);
      expect(r.error, r.id).toBeNull();
      expect(r.score, r.id).toBe(await expected(instance!));
    }
    const mean = async (list: readonly TaskInstance[]): Promise<number> => (await Promise.all(list.map(expected))).reduce((x, y) => x + y, 0) / list.length;
    expect(a.visibleScore).toBeCloseTo(await mean(task.visible), 12);
    expect(a.heldoutScore).toBeCloseTo(await mean(task.heldout), 12);
    expect(a.visibleScore).toBeLessThan(1);
    for (const forged of [b, s]) {
      const r = forged.stages[0]?.instances[0];
      expect(r?.score).toBe(0);
      expect(r?.error).toMatch(/^protocol: /);
    }
    return {
      outcome: `grader's scores kept (visible ${a.visibleScore?.toFixed(3)}, held-out ${a.heldoutScore?.toFixed(3)}, claimed 1); forged lines → 0 (protocol)`,
      containMs,
    };
  } finally {
    await Promise.all(builds.map((b) => rm(b, { recursive: true, force: true })));
  }
}
