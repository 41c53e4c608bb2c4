/**
 * Hostile ends of an evaluation stage and of a self-modification. A stage's session, and a meta
 * agent that returned, are released as soon as their work is in: the runner writes a random
 * flush token to stderr on shutdown, and the host takes the stderr before it and leaves the
 * container's teardown to the background. Task agents that fight that: one patches
 * process.exit away and keeps writing after its answers, one floods stderr far past the cap,
 * one makes itself deaf to the shutdown (its event loop busy), one forges tokens of the right
 * shape. Each stage must be scored from its answers, end within the grace, and leave no
 * container (the frame counts them, with the removals under way settled). Meta agents that do
 * the same after returning: each report must be taken, within the grace and a kill.
 */
import { expect } from "vitest";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluateCandidate, loadTask } from "../../../harness/src/evaluation/index.js";
import { runImprove } from "../../../sandbox/src/index.js";
import { writeJsBuild } from "../../support/js-build.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const TASK_DIR = new URL("../fixtures/sec-sum/", import.meta.url).pathname;

const AGENTS: Record<string, string> = {
  // The runner's exit does nothing now: the process outlives the token, writing on.
  "undying": `process.exit = () => undefined;
setInterval(() => process.stderr.write("still here\\n"), 5);
export async function solve(input) { return { sum: input.a + input.b }; }\n`,
  "flood": `import { writeSync } from "node:fs";
export async function solve(input) { for (let i = 0; i < 4000; i++) writeSync(2, "f".repeat(1000) + "\\n"); return { sum: input.a + input.b }; }\n`,
  // Deaf right after its answer (one instance per stage here), before the shutdown can arrive.
  "deaf": `export async function solve(input) { setTimeout(() => { for (;;) {} }, 0); return { sum: input.a + input.b }; }\n`,
  "forger": `import { writeSync } from "node:fs";
export async function solve(input) { for (let i = 0; i < 50; i++) writeSync(2, "evolve-flushed-" + "0".repeat(8) + "-" + i + "\\n"); return { sum: input.a + input.b }; }\n`,
};

export async function hostileStageEnds(c: CaseContext): Promise<CaseVerdict> {
  const task = await loadTask(TASK_DIR);
  const outcomes: string[] = [];
  let containMs = 0;
  for (const [name, source] of Object.entries(AGENTS)) {
    const build = await writeJsBuild({ task: source });
    const started = Date.now();
    const result = await evaluateCandidate({ engine: c.env.engine, image: c.env.image, task, buildDir: build, labels: c.labels, runtime: c.runtime, seed: 1, visible: "full", heldout: false });
    const ms = Date.now() - started;
    containMs = Math.max(containMs, ms);
    const instances = result.stages.flatMap((s) => s.instances);
    // Every instance answered before its stage ended: the stage's end cannot cost a score.
    expect(instances.length, name).toBe(task.visible.length);
    for (const i of instances) expect(i.score, `${name} ${i.id}: ${i.feedback}`).toBe(1);
    // Two stages, each ended within the grace (5 s) and a kill, on a loaded machine.
    expect(ms, name).toBeLessThan(40_000);
    for (const s of result.stages) expect(s.stderr.length, name).toBeLessThanOrEqual(16 * 1024 + 64);
    outcomes.push(`${name} ${instances.length}/${task.visible.length} scored in ${(ms / 1000).toFixed(1)} s`);
  }
  for (const [name, meta] of Object.entries(META_AGENTS)) {
    const folder = await mkdtemp(join(tmpdir(), "evolve-stage-end-"));
    const agent = join(folder, "agent");
    await mkdir(agent);
    await writeFile(join(agent, "x.ts"), "export {};\n");
    const started = Date.now();
    const result = await runImprove({
      engine: c.env.engine, image: c.env.image, labels: c.labels, runtime: c.runtime, buildDir: await writeJsBuild({ meta }), agentDir: agent, takeTo: join(folder, "taken"), timeoutMs: 120_000,
      init: { task: "sec-sum", seed: 1, llmAvailable: false, deadline: Date.now() + 120_000, request: {} },
    });
    const ms = Date.now() - started;
    await rm(folder, { recursive: true, force: true });
    containMs = Math.max(containMs, ms);
    expect(result.end, `${name}: ${result.outcome.stderr.slice(-500)}`).toBeNull();
    expect(result.report, name).toEqual({ summary: name, changedFiles: [] });
    // The grace (5 s) and a kill, not the container's 120 s.
    expect(ms, name).toBeLessThan(40_000);
    outcomes.push(`meta ${name} reported in ${(ms / 1000).toFixed(1)} s`);
  }
  return { outcome: `contained: ${outcomes.join("; ")}; no container left`, containMs };
}

/** Meta agents that fight the release after they return. */
const META_AGENTS: Record<string, string> = {
  undying: `process.exit = () => undefined;
export async function improve() { setInterval(() => process.stderr.write("still here\\n"), 5); return { summary: "undying", changedFiles: [] }; }\n`,
  deaf: `export async function improve() { process.stdin.removeAllListeners("data"); process.stdin.pause(); setInterval(() => undefined, 1000); return { summary: "deaf", changedFiles: [] }; }\n`,
  forger: `import { writeSync } from "node:fs";
export async function improve() { for (let i = 0; i < 50; i++) writeSync(2, "evolve-flushed-" + "0".repeat(8) + "-" + i + "\\n"); return { summary: "forger", changedFiles: [] }; }\n`,
};
