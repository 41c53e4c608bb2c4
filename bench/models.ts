/**
 * Part 4 of issue 26, models as they really behave: every persona of the model zoo
 * (tests/support/model-zoo) as the endpoint of real runs of the seed, on the built-in tasks
 * and on one the seed does not know (templates/task as "sort-numbers": it must add a solver), a few
 * generations each. Per persona, like aider's edit-format table: the share of generations
 * that give a valid child from the model's own edit (and an improving one), tokens per such
 * child, model calls per generation, and what the harness's probe decided. Goals: a persona
 * whose replies carry a usable edit gives a valid child in ≥ 90 % of generations; one that
 * never edits ends its generation in ≤ 8 calls; nothing throws; every failure has a reason.
 * "Generations" for the first goal are those in which the persona had an edit to write (on
 * sort-numbers only while the tree has no solver yet); all are printed beside it.
 *
 * Full settings (22 personas × 4 tasks × 5 generations; hours on a 2-core machine):
 *   npx tsx bench/models.ts
 * Anything less is marked REDUCED and goes to bench/results/models-reduced.json.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { DEFAULT_WARM_POOL } from "../harness/src/evolution/index.js";
import { connectEngines, LOCAL_ENGINE } from "../sandbox/src/index.js";
import { PERSONAS, persona, type Persona } from "../tests/support/model-zoo/index.js";
import { argInt, argValue, checkArgs, load1 } from "./lib/args.js";
import { personaRun, type PersonaRun } from "./lib/persona-run.js";
import { BENCH_DIR, saveResults, table } from "./lib/stats.js";

checkArgs("npx tsx bench/models.ts [--personas all] [--tasks circle-packing,email-validation,snake,unknown] [--generations 5] [--workers 2] [--seed 1] [--name models|models-reduced]");

const FULL = { tasks: ["circle-packing", "email-validation", "snake", "unknown"], generations: 5 };
const personas: Persona[] = argValue("personas", "all") === "all" ? [...PERSONAS] : argValue("personas", "").split(",").map(persona);
const tasks = argValue("tasks", FULL.tasks.join(",")).split(",");
const generations = argInt("generations", FULL.generations);
const workers = argInt("workers", 2);
const seed = argInt("seed", 1);
const reduced = personas.length < PERSONAS.length || FULL.tasks.some((t) => !tasks.includes(t)) || generations < FULL.generations;
/**
 * The task the seed does not know: the template `evolve new task` writes (sorting numbers),
 * copied under a name no solver of the seed has (a task's folder is named as its task.json).
 */
async function unknownTask(): Promise<{ name: string; arg: string }> {
  const name = "sort-numbers";
  const dir = join(await mkdtemp(join(tmpdir(), "evolve-bench-models-task-")), name);
  await cp(resolve(BENCH_DIR, "../templates/task"), dir, { recursive: true });
  const manifest = JSON.parse(await readFile(join(dir, "task.json"), "utf8")) as Record<string, unknown>;
  await writeFile(join(dir, "task.json"), `${JSON.stringify({ ...manifest, name }, null, 2)}\n`);
  return { name, arg: dir };
}

interface PersonaTotals {
  persona: string;
  habit: string;
  edits: boolean;
  modes: string[];
  generations: number;
  /** Generations in which the persona had an edit to write. */
  offered: number;
  validByModel: number;
  /** Of those: a valid child from the model's own edit. */
  validOffered: number;
  validAny: number;
  improving: number;
  tokens: number;
  meanCalls: number;
  maxCalls: number;
  unexplained: number;
  errors: string[];
  goalMet: boolean;
}

function totals(p: Persona, runs: readonly PersonaRun[]): PersonaTotals {
  const gens = runs.flatMap((r) => r.generations);
  const validByModel = gens.filter((g) => g.status === "valid" && g.byModel).length;
  const calls = gens.map((g) => g.calls);
  const maxCalls = calls.length === 0 ? 0 : Math.max(...calls);
  const errors = runs.flatMap((r) => (r.error === null ? [] : [`${r.task}: ${r.error}`]));
  const unexplained = gens.filter((g) => g.reason === "no reason recorded").length;
  const offered = gens.filter((g) => g.offered);
  const validOffered = offered.filter((g) => g.status === "valid" && g.byModel).length;
  const share = offered.length === 0 ? 0 : validOffered / offered.length;
  return {
    persona: p.name,
    habit: p.habit,
    edits: p.edits,
    modes: [...new Set(runs.map((r) => r.probe?.mode ?? "not probed"))],
    generations: gens.length,
    offered: offered.length,
    validByModel,
    validOffered,
    validAny: gens.filter((g) => g.status === "valid").length,
    improving: gens.filter((g) => g.byModel && g.improving).length,
    tokens: gens.reduce((s, g) => s + g.tokens, 0),
    meanCalls: calls.length === 0 ? 0 : calls.reduce((a, b) => a + b, 0) / calls.length,
    maxCalls,
    unexplained,
    errors,
    goalMet: errors.length === 0 && unexplained === 0 && gens.length > 0 && (p.edits ? share >= 0.9 : maxCalls <= 8),
  };
}

const pct = (n: number, of: number): string => (of === 0 ? "–" : `${Math.round((100 * n) / of)} %`);

/** The README's table: one row per persona. */
function markdown(rows: readonly PersonaTotals[]): string {
  const head = "| persona | habit | probe → mode | valid child from the model's edit, where it had one | of all generations | improving | tokens / valid child | calls / generation (max) | goal |\n|---|---|---|---|---|---|---|---|---|";
  const lines = rows.map((t) => {
    const perChild = t.validByModel === 0 ? "–" : Math.round(t.tokens / t.validByModel).toLocaleString("en");
    const goal = t.edits ? "≥ 90 % valid" : "≤ 8 calls";
    return `| ${t.persona} | ${t.habit.replace(/\|/g, "\\|")} | ${t.modes.join(", ")} | ${t.edits ? pct(t.validOffered, t.offered) : "never writes it"} (${t.validOffered}/${t.offered}) | ${t.validByModel}/${t.generations} | ${pct(t.improving, t.generations)} | ${perChild} | ${t.meanCalls.toFixed(1)} (${t.maxCalls}) | ${goal}: ${t.goalMet ? "met" : "NOT met"} |`;
  });
  return [head, ...lines].join("\n");
}

async function main(): Promise<void> {
  const unknown = tasks.includes("unknown") ? await unknownTask() : null;
  const taskArgs = tasks.map((t) => (t === "unknown" && unknown !== null ? unknown : { name: t, arg: t }));
  console.log(`models bench${reduced ? " (REDUCED)" : ""}: ${personas.length} personas × ${taskArgs.map((t) => t.name).join(", ")} × ${generations} generations, ${workers} workers, seed ${seed}, load ${load1()}`);
  const engine = await connectEngines(LOCAL_ENGINE, { warmPool: DEFAULT_WARM_POOL });
  const runs: PersonaRun[] = [];
  const started = Date.now();
  try {
    for (const p of personas) {
      for (const task of taskArgs) {
        const run = await personaRun(engine, p, task, generations, workers, seed);
        runs.push(run);
        const gens = run.generations;
        console.log(
          `${p.name.padEnd(22)} ${task.name.padEnd(17)} mode ${(run.probe?.mode ?? "-").padEnd(5)} valid ${gens.filter((g) => g.status === "valid" && g.byModel).length}/${gens.length} (offered ${gens.filter((g) => g.offered).length}, any ${gens.filter((g) => g.status === "valid").length}) ` +
            `calls ${gens.map((g) => g.calls).join(",")} ${Math.round(run.wallMs / 1000)} s${run.error === null ? "" : ` ERROR ${run.error}`}`,
        );
        for (const g of gens) if (g.reason !== "") console.log(`    ${g.id} ${g.status}: ${g.reason.slice(0, 200)}`);
      }
    }
  } finally {
    await engine.close();
    if (unknown !== null) await rm(dirname(unknown.arg), { recursive: true, force: true });
  }
  const rows = personas.map((p) => totals(p, runs.filter((r) => r.persona === p.name)));
  console.log(`\n${table([["persona", "mode", "gens", "offered", "valid(offered)", "valid(model)", "valid(any)", "improving", "tok/valid", "calls", "max", "goal"], ...rows.map((t) => [t.persona, t.modes.join(","), String(t.generations), String(t.offered), String(t.validOffered), String(t.validByModel), String(t.validAny), String(t.improving), t.validByModel === 0 ? "-" : String(Math.round(t.tokens / t.validByModel)), t.meanCalls, String(t.maxCalls), t.goalMet ? "met" : "NOT met"])])}`);
  console.log(`\n${markdown(rows)}\n`);
  const failing = rows.filter((t) => !t.goalMet).map((t) => t.persona);
  console.log(`${rows.length - failing.length}/${rows.length} personas meet their goal${failing.length > 0 ? `; not: ${failing.join(", ")}` : ""}; ${Math.round((Date.now() - started) / 60_000)} min, load ${load1()}`);
  const file = await saveResults(argValue("name", reduced ? "models-reduced" : "models"), { reduced, personas: personas.map((p) => p.name), tasks, generations, workers, seed, rows, runs });
  console.log(`results: ${file}`);
  if (reduced) console.log("full figures: npx tsx bench/models.ts");
}

await main();
