/**
 * Issue 18's evidence: a fixed benchmark against the arena at equal container budget, on the
 * same seeds (paired). Per (task, seed): the arena duel runs first and its containers are
 * counted; then an ordinary run with the same seed is stopped (as by Ctrl-C) once it has
 * started as many containers. Compared: the held-out score of what each run would ship (the
 * arena: its final best on visible + suite; fixed: its best visible), and the "false
 * confidence" of the fixed winner: its visible score against its score on every test the
 * arena admitted over the run (the final suite alone holds only the tests nobody solved yet),
 * with the arena's best on the same tests beside it, both run here in fresh containers.
 * Offline strategy, workers 2.
 *
 *   npx tsx bench/arena.ts --seeds 5 --rounds 6 --tasks email-validation,snake
 *
 * Results: bench/results/arena.json (a run per line as it finishes); the table is printed.
 */
import { bestGeneration } from "../harness/src/selection/index.js";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { readArena, type ArenaTest } from "../harness/src/arena/index.js";
import { generationPaths, readRun, type GenerationRecord } from "../harness/src/archive/index.js";
import { evaluateCandidate, loadTask, type TaskInstance } from "../harness/src/evaluation/index.js";
import { countingEngine, DEFAULT_WARM_POOL, startRun, taskDirFor } from "../harness/src/evolution/index.js";
import { connectEngines, LOCAL_ENGINE, newSessionId, type SandboxEngine } from "../sandbox/src/index.js";
import { argInt, argValue, checkArgs } from "./lib/args.js";
import { benchArchiveRoot } from "./lib/run-evolution.js";
import { saveResults, table } from "./lib/stats.js";
import { compileTree } from "./lib/compile-tree.js";

checkArgs("npx tsx bench/arena.ts [--seeds 5] [--rounds 6] [--tasks email-validation,snake] [--workers 2]");
const seeds = argInt("seeds", 5);
const rounds = argInt("rounds", 6);
const workers = argInt("workers", 2);
const tasks = argValue("tasks", "email-validation,snake").split(",");

interface Row {
  task: string;
  seed: number;
  containers: { arena: number; fixed: number };
  codeChildren: { arena: number; fixed: number };
  arena: { best: string; visible: number | null; suite: number | null; heldout: number | null; suiteSize: number; admitted: number; allTests: number | null };
  fixed: { best: string; visible: number | null; heldout: number | null; arenaSuite: number | null; allTests: number | null };
  wallMs: number;
}

const quiet = { isTTY: false, write: () => undefined };

async function run(engine: SandboxEngine, options: Record<string, unknown>, budget?: number): Promise<{ dir: string; containers: number; generations: GenerationRecord[] }> {
  const out = await benchArchiveRoot("arena");
  const stop = new AbortController();
  const counted = countingEngine(engine, (n) => {
    if (budget !== undefined && n >= budget) stop.abort();
  });
  const summary = await startRun({ ...options, workers, out, runId: "run" }, { sink: quiet, signal: stop.signal, env: {}, engine: counted.engine, session: newSessionId() });
  return { dir: summary.runDir, containers: counted.started(), generations: (await readRun(summary.runDir)).generations };
}

/** A candidate's mean score on `tests`, run now in fresh containers on the run's evaluation seed. */
async function scoreOn(engine: SandboxEngine, taskDir: string, runDir: string, candidate: GenerationRecord, tests: readonly ArenaTest[]): Promise<number | null> {
  if (tests.length === 0) return null;
  const task = await loadTask(taskDir);
  const instances = tests.map((t) => t.instance as unknown as TaskInstance);
  const build = await compileTree(generationPaths(runDir, candidate.id).snapshot);
  try {
    const evaluation = await evaluateCandidate({
      engine,
      image: await engine.ensureRuntimeImage(),
      task: { ...task, visible: instances, heldout: [] },
      buildDir: build.dir,
      labels: { session: newSessionId(), run: "bench-arena", generation: candidate.id, phase: "arena" },
      seed: candidate.seed,
      subset: instances,
      heldout: false,
    });
    return evaluation.visibleScore;
  } finally {
    await build.dispose();
  }
}

const engine = await connectEngines(LOCAL_ENGINE, { warmPool: DEFAULT_WARM_POOL });
const rows: Row[] = [];
try {
  for (const task of tasks) {
    for (let seed = 1; seed <= seeds; seed++) {
      const started = Date.now();
      const arena = await run(engine, { task, seed, arena: { rounds } });
      const records = await readArena(arena.dir);
      const last = records.rounds.at(-1);
      const standing = last?.standing.afterCode ?? null;
      const fixed = await run(engine, { task, seed, generations: 10_000 }, arena.containers);
      const winner = bestGeneration(fixed.generations);
      const suite = last?.suite ?? [];
      const arenaSuite = winner === null ? null : await scoreOn(engine, taskDirFor(task), fixed.dir, winner, suite);
      // Every test that ever entered the suite, once: what the arena taught, solved or not.
      const admitted = [...new Map(records.rounds.flatMap((r) => r.suite).map((t) => [t.id, t])).values()];
      const arenaBest = arena.generations.find((g) => g.id === standing?.best) ?? null;
      const allTests = {
        arena: arenaBest === null ? null : await scoreOn(engine, taskDirFor(task), arena.dir, arenaBest, admitted),
        fixed: winner === null ? null : await scoreOn(engine, taskDirFor(task), fixed.dir, winner, admitted),
      };
      const row: Row = {
        task,
        seed,
        containers: { arena: arena.containers, fixed: fixed.containers },
        codeChildren: { arena: arena.generations.length - 1, fixed: fixed.generations.length - 1 },
        arena: { best: standing?.best ?? "-", visible: standing?.visible ?? null, suite: standing?.suite ?? null, heldout: standing?.heldout ?? null, suiteSize: suite.length, admitted: admitted.length, allTests: allTests.arena },
        fixed: { best: winner?.id ?? "-", visible: winner?.scores.visible ?? null, heldout: winner?.scores.heldout ?? null, arenaSuite, allTests: allTests.fixed },
        wallMs: Date.now() - started,
      };
      rows.push(row);
      console.log(JSON.stringify(row));
      await saveResults("arena", { settings: { seeds, rounds, workers, tasks }, rows });
      await rm(join(arena.dir, ".."), { recursive: true, force: true });
      await rm(join(fixed.dir, ".."), { recursive: true, force: true });
    }
  }
} finally {
  await engine.close();
}

const stat = (values: (number | null)[]): string => {
  const v = values.filter((x): x is number => x !== null);
  if (v.length === 0) return "-";
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, v.length - 1));
  return `${mean.toFixed(3)} ± ${sd.toFixed(3)}`;
};
const header = ["task", "runs", "containers a/f", "held-out: arena", "held-out: fixed", "fixed winner: visible", "fixed winner: final suite", "all arena tests: arena best", "all arena tests: fixed winner"];
const lines: (string | number)[][] = [header];
for (const task of tasks) {
  const mine = rows.filter((r) => r.task === task);
  lines.push([
    task,
    mine.length,
    `${stat(mine.map((r) => r.containers.arena)).split(" ")[0]}/${stat(mine.map((r) => r.containers.fixed)).split(" ")[0]}`,
    stat(mine.map((r) => r.arena.heldout)),
    stat(mine.map((r) => r.fixed.heldout)),
    stat(mine.map((r) => r.fixed.visible)),
    stat(mine.map((r) => r.fixed.arenaSuite)),
    stat(mine.map((r) => r.arena.allTests)),
    stat(mine.map((r) => r.fixed.allTests)),
  ]);
}
console.log(table(lines));
