/** `evolve run`: start a run (the default: the built-in task with the offline strategy). */
import type { ProgressSink } from "../../evolution/index.js";
import { DEFAULT_ARENA_ROUNDS, DEFAULT_ATTEMPTS, DEFAULT_EVALUATIONS, DEFAULT_GENERATIONS, DEFAULT_SEED, DEFAULT_SUITE_CAP, DEFAULT_TASK, HELDOUT_TOP, MAX_EVALUATIONS, RunOptions } from "../../evolution/run/run-settings.js";
import { DEFAULT_CHECK_LIMITS } from "../../validation/check-limits.js"; // not the index: keeps --help instant
import type { CliCommand, CommandInput } from "../command.js";
import { ENGINE_HELP, ENGINE_OPTIONS, engineConnector } from "../engine-wiring.js";
import { resolveTaskArg } from "../task-arg.js";
import { whenStdoutCloses } from "../process-exit.js";
import { numberOption, optionRule, parseOptions, UsageError, type OptionField } from "../usage.js";

/** The options of `evolve run` that hold values, and the field of RunOptions each fills. */
const RUN_FIELDS: readonly OptionField[] = [
  { name: "generations", path: ["generations"] },
  { name: "workers", path: ["workers"] },
  { name: "selection", path: ["selection"] },
  { name: "budget-tokens", path: ["budgetTokens"] },
  { name: "budget-usd", path: ["budgetUsd"] },
  { name: "generation-tokens", path: ["generationTokens"] },
  { name: "solve-budget-tokens", path: ["solveBudgetTokens"] },
  { name: "solve-generation-tokens", path: ["solveGenerationTokens"] },
  { name: "seed", path: ["seed"] },
  { name: "runtime", path: ["runtime"] },
  { name: "from", path: ["from"] },
  { name: "improve-timeout", path: ["improveTimeoutMs"], seconds: true },
  { name: "check-memory", path: ["checkMemoryMb"] },
  { name: "check-timeout", path: ["checkTimeoutMs"], seconds: true },
  { name: "evaluations", path: ["evaluations"] },
  { name: "attempts", path: ["attempts"] },
  { name: "rounds", path: ["arena", "rounds"] },
  { name: "code-population", path: ["arena", "codePopulation"] },
  { name: "test-population", path: ["arena", "testPopulation"] },
  { name: "tournament-every", path: ["arena", "tournamentEvery"] },
  { name: "suite-cap", path: ["arena", "suiteCap"] },
];

/** A numeric option of `evolve run`, or undefined; text that is no number is refused with the option's rule. */
function runNumber(values: CommandInput["values"], name: string): number | undefined {
  const field = RUN_FIELDS.find((f) => f.name === name);
  return numberOption(values, name, () => (field === undefined ? "a number" : optionRule(RunOptions, field)));
}

function stringOption(values: CommandInput["values"], name: string): string | undefined {
  const raw = values[name];
  return typeof raw === "string" ? raw : undefined;
}

/** An on|off option as a boolean, or undefined when absent. */
function switchOption(values: CommandInput["values"], name: string): boolean | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (raw === "on" || raw === "off") return raw === "on";
  throw new UsageError(`--${name} expects on or off, got ${JSON.stringify(raw)}`);
}

export const run: CliCommand = {
  name: "run",
  summary: "evolve an agent on a task (no options: the built-in default, offline, a few minutes)",
  help: `usage: evolve run [options]
  --task T|DIR          built-in task name (tasks/T) or a task folder (default ${DEFAULT_TASK}); evolve new task DIR writes one
  --agent DIR           agent tree for generation 0 (default seed-agent/); evolve new agent DIR writes one
  --from RUN/GEN        branch: generation 0 is that generation's snapshot (lineage kept in run.json)
  --generations N       children to attempt (default ${DEFAULT_GENERATIONS}); the seed is evaluated on top
  --workers W           children in flight at once (default: number of cores; with --engine: the engines' slots)
  --selection S         score_child_prop (default), hyperagents, cmp, best, random, greedy, latest
  --model M             LLM model (needs OPENAI_BASE_URL and/or OPENAI_API_KEY; else offline)
  --budget-tokens N     LLM tokens for the whole run; the run stops proposing when spent
  --budget-usd X        dollars for the whole run (models with a known price)
  --generation-tokens N LLM tokens per generation
  --solve-budget-tokens N     the task agent's own LLM tokens for the whole run, at solve time (a task that needs a
                              model, e.g. ts-exercises); apart from the meta agent's budgets; the run stops when spent
  --solve-generation-tokens N the task agent's LLM tokens per generation (its evaluation and its ctx.evaluate drafts)
  --seed K              run seed: selection, self-modification seeds, evaluation seed (default ${DEFAULT_SEED})
  --out DIR             archive root (default generations/ in the current folder)
  --runtime R           runc (default) or runsc (gVisor)
  --improve-timeout S   seconds for one self-modification container (default 180)
  --check-memory MB     heap cap of the worker that checks each candidate (policy, compile, signature; default ${DEFAULT_CHECK_LIMITS.memoryMb})
  --check-timeout S     seconds for one candidate's checks (default ${DEFAULT_CHECK_LIMITS.timeoutMs / 1000}); past either limit the child is
                        invalid (compile_memory, compile_timeout) and the run goes on
  --policy FILE         run policy (JSON): protected paths no child may change, and approval rules for changes
                        that wait for a person (evolve pending / approve / reject); see README "Supervised runs"
  --evaluations N       calls of ctx.evaluate per generation: the meta agent's draft checked and evaluated on visible
                        instances (default ${DEFAULT_EVALUATIONS}, at most ${MAX_EVALUATIONS}; 0: none, the offline strategy then makes one move)
  --attempts N          earlier children of the parent and its close relatives listed in each improve request, with
                        their summaries and outcomes (default ${DEFAULT_ATTEMPTS}; 0: none)
  --racing on|off       race each child's visible split against its parent, stopping it once it cannot reach the
                        parent's score with 95 % confidence; held-out then for the ${HELDOUT_TOP} best (default on)
  --discount-barren on|off
                        strategies that count children also weigh down parents whose children came out empty,
                        invalid or duplicates, and share a plateau's weight below the best (default on)
  --arena               arena run: each round test generations propose tests that must break the current code
                        (the task's oracle judges them), then code children are selected on visible + the suite;
                        the held-out split never changes (README "Arena runs")
  --rounds R            arena rounds (default ${DEFAULT_ARENA_ROUNDS}); the run makes R × code-population code children
  --code-population N   code candidates kept (default 1); with --test-population, above 1 makes it a population arena
  --test-population M   test generations per round and testers kept (default 1)
  --tournament-every K  rounds between the populations keeping only their best (default 1)
  --suite-cap C         most tests in force at once; the least discriminating retire first (default ${DEFAULT_SUITE_CAP})
${ENGINE_HELP}
  Ctrl-C stops cleanly (exit 130); \`evolve resume <run>\` continues.`,
  options: {
    task: { type: "string" },
    agent: { type: "string" },
    from: { type: "string" },
    generations: { type: "string" },
    workers: { type: "string" },
    selection: { type: "string" },
    model: { type: "string" },
    "budget-tokens": { type: "string" },
    "budget-usd": { type: "string" },
    "generation-tokens": { type: "string" },
    "solve-budget-tokens": { type: "string" },
    "solve-generation-tokens": { type: "string" },
    seed: { type: "string" },
    out: { type: "string" },
    runtime: { type: "string" },
    "improve-timeout": { type: "string" },
    "check-memory": { type: "string" },
    "check-timeout": { type: "string" },
    policy: { type: "string" },
    evaluations: { type: "string" },
    attempts: { type: "string" },
    racing: { type: "string" },
    "discount-barren": { type: "string" },
    arena: { type: "boolean" },
    rounds: { type: "string" },
    "code-population": { type: "string" },
    "test-population": { type: "string" },
    "tournament-every": { type: "string" },
    "suite-cap": { type: "string" },
    ...ENGINE_OPTIONS,
  },
  positionals: { min: 0, max: 0, names: "" },
  async run({ values }) {
    const improveTimeout = runNumber(values, "improve-timeout");
    const checkTimeout = runNumber(values, "check-timeout");
    const task = stringOption(values, "task");
    const raw = {
      task: task === undefined ? undefined : resolveTaskArg(task),
      agent: stringOption(values, "agent"),
      from: stringOption(values, "from"),
      generations: runNumber(values, "generations"),
      workers: runNumber(values, "workers"),
      selection: stringOption(values, "selection"),
      model: stringOption(values, "model"),
      budgetTokens: runNumber(values, "budget-tokens"),
      budgetUsd: runNumber(values, "budget-usd"),
      generationTokens: runNumber(values, "generation-tokens"),
      solveBudgetTokens: runNumber(values, "solve-budget-tokens"),
      solveGenerationTokens: runNumber(values, "solve-generation-tokens"),
      seed: runNumber(values, "seed"),
      out: stringOption(values, "out"),
      runtime: stringOption(values, "runtime"),
      improveTimeoutMs: improveTimeout === undefined ? undefined : Math.round(improveTimeout * 1000),
      checkMemoryMb: runNumber(values, "check-memory"),
      checkTimeoutMs: checkTimeout === undefined ? undefined : Math.round(checkTimeout * 1000),
      policy: stringOption(values, "policy"),
      evaluations: runNumber(values, "evaluations"),
      attempts: runNumber(values, "attempts"),
      racing: switchOption(values, "racing"),
      discountBarren: switchOption(values, "discount-barren"),
      arena: arenaOptions(values),
    };
    const options = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
    // Every value checked against the schema startRun parses with, so a wrong one is a usage line here.
    parseOptions(RunOptions, options, RUN_FIELDS, values);
    // The engine loads only when a command needs it: `--help` and bad options stay instant.
    const { startRun } = await import("../../evolution/index.js");
    const summary = await interruptible((signal) => startRun(options, { sink: stdoutSink(), signal, env: process.env, engine: engineConnector(values) }));
    return summary.end === "interrupted" ? 130 : 0;
  },
};

const ARENA_FLAGS = ["rounds", "code-population", "test-population", "tournament-every", "suite-cap"] as const;

/** The arena's options when --arena is given; its flags without it are a mistake worth saying. */
function arenaOptions(values: CommandInput["values"]): Record<string, number | undefined> | undefined {
  if (values["arena"] !== true) {
    const stray = ARENA_FLAGS.find((f) => values[f] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} applies to an arena run only: add --arena`);
    return undefined;
  }
  if (values["generations"] !== undefined) throw new UsageError("--generations does not apply to an arena run: it makes --rounds × --code-population code children");
  const ordinary = ["attempts", "racing", "discount-barren"].find((f) => values[f] !== undefined);
  if (ordinary !== undefined) throw new UsageError(`--${ordinary} does not apply to an arena run: it selects by tournament and evaluates every code child whole`);
  return Object.fromEntries(
    [
      ["rounds", runNumber(values, "rounds")],
      ["codePopulation", runNumber(values, "code-population")],
      ["testPopulation", runNumber(values, "test-population")],
      ["tournamentEvery", runNumber(values, "tournament-every")],
      ["suiteCap", runNumber(values, "suite-cap")],
    ].filter(([, v]) => v !== undefined),
  );
}

/** Progress to stdout: the live line when it is a terminal. */
export function stdoutSink(): ProgressSink {
  return { isTTY: process.stdout.isTTY === true, write: (text) => void process.stdout.write(text) };
}

/**
 * Runs `work` with a signal that SIGINT/SIGTERM abort: the run stops cleanly (containers
 * removed, run marked interrupted). A second Ctrl-C exits at once.
 */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\n${signal}: stopping cleanly (removing containers, marking the run interrupted); again to exit at once\n`);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // Nobody reads the progress any more (`evolve run | head`): the run stops as cleanly as on Ctrl-C, quietly.
  const unwatch = whenStdoutCloses(() => controller.abort());
  try {
    return await work(controller.signal);
  } finally {
    unwatch();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
