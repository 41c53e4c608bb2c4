/**
 * `npm run bench:code-tests`: what one ts-exercises instance costs in containers and seconds.
 *
 * 1. The code-test container alone, as a grader's `ctx.runTests` starts it: each of N
 *    exercises' reference answers, one after another (wall time, and its compile phase: the
 *    compiler's start and the type check inside the container).
 * 2. A whole evaluation of N instances by a task agent that answers with the references
 *    (no model: the answers are canned, so only the harness's costs are measured): the solve
 *    session's container and one code-test container per instance; containers and wall time
 *    per instance.
 * Both with the warm pool off and on (`--warm-pool P`, default 2). Prints and saves; asserts nothing.
 */
import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { connectEngines, LOCAL_ENGINE, newSessionId, type Runtime, type SandboxEngine } from "../sandbox/src/index.js";
import { createCodeTester, evaluateCandidate, loadTask, type Task } from "../harness/src/evaluation/index.js";
import { countingEngine } from "../harness/src/evolution/index.js";
import { EXERCISES } from "../tasks/ts-exercises/exercises/index.js";
import { writeJsBuild } from "../tests/support/js-build.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { saveResults, summarize, table } from "./lib/stats.js";

checkArgs("npx tsx bench/code-tests.ts [--instances N] [--runtime runc|runsc] [--warm-pool P]");
const TASK_DIR = resolve(import.meta.dirname, "../tasks/ts-exercises");
const instances = argInt("instances", 8);
const runtime = argValue("runtime", "runc") as Runtime;
const warm = argInt("warm-pool", 2);

async function references(task: Task): Promise<{ id: string; source: string }[]> {
  const ids = task.visible.slice(0, instances).map((i) => i.id);
  return Promise.all(ids.map(async (id) => ({ id, source: await readFile(join(TASK_DIR, "reference", `${id}.ts`), "utf8") })));
}

/** Part 1: the grader's code-test container per reference answer. */
async function containerAlone(engine: SandboxEngine, task: Task, answers: { id: string; source: string }[]) {
  const image = await engine.ensureRuntimeImage();
  const runTests = createCodeTester({ engine, image, labels: { session: newSessionId(), phase: "bench-exec" }, runtime, deadline: () => Date.now() + 3_600_000 });
  const wall: number[] = [];
  const compile: number[] = [];
  let passedAll = 0;
  for (const { id, source } of answers) {
    const exercise = EXERCISES.get(id);
    if (exercise === undefined) continue;
    const started = performance.now();
    const report = await runTests({
      source,
      exports: [{ name: exercise.fn, type: exercise.type }],
      tests: exercise.tests.map((t) => ({ name: t.name, export: exercise.fn, args: t.args as never, expect: t.expect as never, compare: exercise.compare ?? "equal" })),
    });
    wall.push(performance.now() - started);
    if (report.status === "tested") {
      compile.push(report.compileMs);
      if (report.passed === report.total) passedAll++;
    }
  }
  void task;
  return { wall: summarize(wall), compile: summarize(compile), passedAll, of: answers.length };
}

/** Part 2: a whole evaluation; containers and seconds per instance. */
async function wholeEvaluation(engine: SandboxEngine, task: Task, answers: { id: string; source: string }[]) {
  const image = await engine.ensureRuntimeImage();
  const byTitle = Object.fromEntries(answers.map(({ id, source }) => [EXERCISES.get(id)?.title ?? id, source]));
  const build = await writeJsBuild({ task: `const answers = ${JSON.stringify(byTitle)};\nexport async function solve(input) { return { source: answers[input.title] ?? "" }; }\n` });
  const counted = countingEngine(engine);
  try {
    const subset = task.visible.slice(0, answers.length);
    const started = performance.now();
    const result = await evaluateCandidate({ engine: counted.engine, image, task, buildDir: build, labels: { session: newSessionId(), phase: "bench" }, runtime, seed: 1, subset, heldout: false });
    const ms = performance.now() - started;
    return { instances: subset.length, containers: counted.started(), ms, perInstanceMs: ms / subset.length, score: result.visibleScore };
  } finally {
    await rm(build, { recursive: true, force: true });
  }
}

const task = await loadTask(TASK_DIR);
const answers = await references(task);
const rows: (string | number)[][] = [["warm pool", "container p50 ms", "p95 ms", "compile p50 ms", "refs passing", "eval s/instance", "containers/instance", "load"]];
const results: Record<string, unknown>[] = [];
for (const pool of warm > 0 ? [0, warm] : [0]) {
  const engine = await connectEngines(LOCAL_ENGINE, pool > 0 ? { warmPool: pool } : {});
  try {
    const alone = await containerAlone(engine, task, answers);
    const whole = await wholeEvaluation(engine, task, answers);
    const loadNow = load1();
    results.push({ warmPool: pool, runtime, alone, whole, load1: loadNow });
    rows.push([String(pool), alone.wall.p50, alone.wall.p95, alone.compile.p50, `${alone.passedAll}/${alone.of}`, whole.perInstanceMs / 1000, whole.containers / whole.instances, loadNow]);
  } finally {
    await engine.close();
  }
}
console.log(`ts-exercises, ${instances} instances, ${runtime}\n${table(rows)}`);
console.log(`saved ${await saveResults(`code-tests-${runtime}`, results)}`);
