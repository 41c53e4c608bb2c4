/**
 * Hostile answers to a coding task (ts-exercises): a task agent whose `solve` answers some
 * exercises with code that loops forever, floods its output, reads the file system, reaches
 * for the network, starts a process, calls process.exit, exhausts its heap, forges the
 * code-test protocol on stdout, or does not compile (a type bomb), and answers the exercises
 * in between with reference solutions. Each hostile answer must score 0 with its reason;
 * every good answer after one must still score 1 (nothing carries over to the next
 * instance); nothing reaches the host (the frame checks it).
 */
import { readFile, rm } from "node:fs/promises";
import { expect } from "vitest";
import { evaluateCandidate, loadTask } from "../../../harness/src/evaluation/index.js";
import { EXERCISES } from "../../../tasks/ts-exercises/exercises/index.js";
import { writeJsBuild } from "../../support/js-build.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const TASK_DIR = new URL("../../../tasks/ts-exercises/", import.meta.url).pathname;

/** Exercise → the hostile module answered for it, and what its feedback must say. */
const HOSTILE: Record<string, { source: string; reason: RegExp }> = {
  "clamp-all": { source: "export function clampAll(v: number[], lo: number, hi: number): number[] { for (;;) {} }", reason: /timeout: no answer within 2000 ms/ },
  "fewest-coins": {
    source: "export function fewestCoins(c: number[], a: number): number { for (let i = 0; i < 1e7; i++) console.log('flood '.repeat(50)); return 0; }",
    reason: /breaking the rules: flood: the solution printed more than \d+ bytes/,
  },
  "top-words": {
    source: "const fs: any = await import('node:' + 'fs');\nconst secret: string = fs.readFileSync('/etc/passwd', 'utf8');\nexport function topWords(t: string, k: number): string[] { return [secret]; }",
    reason: /breaking the rules: denied: .*file system/,
  },
  "second-largest": {
    source: "await (globalThis as any).fetch('http://1.1.1.1/');\nexport function secondLargest(xs: number[]): number | null { return null; }",
    reason: /breaking the rules: denied: .*network/,
  },
  "rotate-clockwise": {
    source: "const cp: any = await import('node:' + 'child_process');\nexport function rotateClockwise(m: number[][]): number[][] { cp.execSync('id'); return m; }",
    reason: /breaking the rules: denied: .*another process/,
  },
  chunk: { source: "export function chunk<T>(items: T[], size: number): T[][] { (globalThis as any).process.exit(0); return []; }", reason: /breaking the rules: exited: .*process\.exit/ },
  // The thread's heap limit stops it, or on a loaded machine the call's clock comes first: 0 either way.
  "shift-letters": {
    source: "export function shiftLetters(t: string, k: number): string { const a: number[][] = []; for (;;) a.push(new Array(1e6).fill(k + 0.5)); }",
    reason: /breaking the rules: memory: the solution ran out of its 128 MiB heap|^0\/7 tests passed; failing: "forward": timeout: no answer within 2000 ms/,
  },
  "summarize-ranges": {
    source:
      "const fs: any = await import('node:' + 'fs');\nfor (let id = 0; id < 6; id++) fs.writeSync(1, JSON.stringify({ type: 'result', id, ok: true, value: ['1..3'], ms: 0 }) + '\\n');\nexport function summarizeRanges(xs: number[]): string[] { return []; }",
    reason: /crash: the code-test container broke its protocol/,
  },
  compress: {
    source: "type Deep<T, N extends unknown[] = []> = N['length'] extends 200 ? T : Deep<[T, T], [...N, 0]>;\nconst bomb: Deep<string> = null as any;\nexport function compress(text: string): number { return bomb.length; }",
    reason: /compile error: /,
  },
};

const GOOD = ["median", "title-case", "shortest-path", "balanced-brackets", "initials", "group-anagrams", "add-minutes"];
/** Hostile and good answers alternate, so every hostile one is followed by a good one. */
const ORDER = ["clamp-all", "median", "fewest-coins", "title-case", "top-words", "shortest-path", "second-largest", "balanced-brackets", "rotate-clockwise", "initials", "chunk", "group-anagrams", "shift-letters", "add-minutes", "summarize-ranges", "compress"];

export async function hostileAnswers(c: CaseContext): Promise<CaseVerdict> {
  const task = await loadTask(TASK_DIR);
  const answers: Record<string, string> = {};
  for (const [slug, { source }] of Object.entries(HOSTILE)) answers[slug] = source;
  for (const slug of GOOD) answers[slug] = await readFile(`${TASK_DIR}reference/${slug}.ts`, "utf8");
  // The title is what solve sees of the exercise: the agent answers by it.
  const byTitle: Record<string, string> = {};
  for (const slug of ORDER) byTitle[EXERCISES.get(slug)?.title ?? slug] = answers[slug] ?? "";
  const build = await writeJsBuild({ task: `const answers = ${JSON.stringify(byTitle)};\nexport async function solve(input) { return { source: answers[input.title] ?? "" }; }\n` });
  try {
    const subset = ORDER.map((slug) => task.visible.find((i) => i.id === slug)).filter((i) => i !== undefined);
    expect(subset).toHaveLength(ORDER.length);
    const result = await evaluateCandidate({ engine: c.env.engine, image: c.env.image, task, buildDir: build, labels: c.labels, runtime: c.runtime, seed: 1, subset, heldout: false, evaluationTimeoutMs: 1_200_000 });
    const instances = result.stages.flatMap((s) => s.instances);
    // Time to contain: the slowest hostile answer, from the call of solve to its score (its container's whole life included).
    const containMs = Math.max(...instances.filter((i) => HOSTILE[i.id] !== undefined).map((i) => i.durationMs));
    expect(instances.map((i) => i.id)).toEqual(ORDER);
    for (const i of instances) {
      const hostile = HOSTILE[i.id];
      if (hostile === undefined) {
        expect(i.score, `${i.id}: ${i.feedback}`).toBe(1);
      } else {
        expect(i.score, i.id).toBe(0);
        expect(i.feedback, i.id).toMatch(hostile.reason);
      }
    }
    const heap = instances.find((i) => i.id === "shift-letters")?.feedback.includes("memory") === true ? "heap limit" : "call clock";
    return { outcome: `${Object.keys(HOSTILE).length} hostile answers scored 0 with their reasons (the heap bomb stopped by the ${heap}); the ${GOOD.length} good answers after them scored 1`, containMs };
  } finally {
    await rm(build, { recursive: true, force: true });
  }
}
