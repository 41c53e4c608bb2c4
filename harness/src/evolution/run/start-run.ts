/**
 * `evolve run`: parse the options, check the task and agent before any container starts,
 * sweep dead sessions, create the run folder, and execute the run.
 */
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { runtimeBaseImage, type EngineConnector, type SandboxEngine } from "../../../../sandbox/src/index.js";
import { EvolveError, PACKAGE_ROOT, type ModelProbe, type Runtime } from "../../kernel/index.js";
import {
  ArchiveWriter,
  ensureWritableFolder,
  generationPaths,
  lineageOf,
  readGeneration,
  readRunRecord,
  resolveRunDir,
  RUN_SCHEMA_VERSION,
  type ArenaSettings,
  type RunOrigin,
  type RunRecord,
} from "../../archive/index.js";
import type { Task } from "../../evaluation/index.js";
import { resolveLlmSetup, type LlmPort, type LlmSetup } from "../../llm/index.js";
import { approvalCleared, readRunPolicy, type RunPolicy } from "../../supervision/index.js";
import { readRun } from "../../archive/index.js";
import { createValidator, DEFAULT_IMPORT_TIMEOUT_MS, TESTER_FILE } from "../../validation/index.js";
import { preflightRun } from "./preflight.js";
import { refuseWithoutModel } from "./model-requirement.js";
import { recordedTaskDir } from "./recorded-task.js";
import type { ProgressSink } from "../view/index.js";
import { DEFAULT_TASK, DEFAULT_WARM_POOL, economyFor, newRunId, RunOptions, taskDirFor, workersFor, type ArenaOptions } from "./run-settings.js";
import { executeRun, type SessionInputs } from "./run-session.js";
import { StartUp } from "./start-up.js";
import { plural } from "../../text/index.js";
import type { RunSummary } from "../view/index.js";
import { probeForRun, probeLine } from "./model-probe-step.js";

/** The outside world of a run: where progress goes, Ctrl-C, the environment (LLM settings). */
export interface RunIo {
  sink: ProgressSink;
  signal: AbortSignal;
  env: Readonly<Record<string, string | undefined>>;
  /** Serves LLM calls from elsewhere (replay, tests); the environment's endpoint when absent. */
  port?: LlmPort | null;
  /** The engines: connected already (tests, benchmarks), or the command's wiring point, called once the run's runtime is known. */
  engine: SandboxEngine | EngineConnector;
  /** The container session label of this process (tests count leftovers by it); fresh when absent. */
  session?: string;
}

/** The harness version recorded in run.json. */
export async function harnessVersion(): Promise<string> {
  const text = await readFile(resolve(PACKAGE_ROOT, "package.json"), "utf8");
  return z.object({ version: z.string().min(1) }).parse(JSON.parse(text)).version;
}

/** What a session takes of the outside world: the model (and a port serving it), Ctrl-C, the sink, the session label. */
export function sessionIo(io: RunIo, setup: LlmSetup): Pick<SessionInputs, "llm" | "signal" | "sink" | "session"> {
  return { llm: { setup, ...(io.port === undefined ? {} : { port: io.port }) }, signal: io.signal, sink: io.sink, ...(io.session === undefined ? {} : { session: io.session }) };
}

/** The run's engines: those handed in, or connected now through the command's wiring point. */
export async function engineOf(io: RunIo, runtime: Runtime): Promise<SandboxEngine> {
  if (typeof io.engine !== "function") return io.engine;
  return io.engine({ runtime, warmPoolDefault: DEFAULT_WARM_POOL, onNote: (line) => io.sink.write(`${line}\n`) });
}

/** The engines as engineOf gives them; closed if the start fails when this process connected them (not when handed in). */
export function connectOwned(startUp: StartUp, io: RunIo, runtime: Runtime): Promise<SandboxEngine> {
  const connecting = engineOf(io, runtime);
  return typeof io.engine === "function" ? startUp.ownLater(connecting, (e) => e.close()) : connecting;
}

/** What `evolve run` asks for: RunOptions before its defaults (the CLI's flags, a test's or a benchmark's object). */
export type RunRequest = z.input<typeof RunOptions>;

/** What a run starts from once the options are read and the folders and files they name are checked. */
interface StartPoint {
  options: RunOptions;
  root: string;
  llmSetup: LlmSetup;
  policy: RunPolicy | null;
  origin: Awaited<ReturnType<typeof resolveOrigin>> | null;
  taskDir: string;
  agentDir: string;
}

/** Starts a new run and executes it to its end. */
export async function startRun(request: RunRequest, io: RunIo): Promise<RunSummary> {
  const start = await startPointOf(request, io);
  const { options, llmSetup, policy, origin } = start;
  // The check worker and the engines are closed on every way out until the run owns them.
  const startUp = new StartUp(io.signal);
  return startUp.guard(async () => {
    const validator = startUp.own(createValidator({ limits: { memoryMb: options.checkMemoryMb, timeoutMs: options.checkTimeoutMs } }), (v) => v.close({ now: true }));
    validator.warm();
    // The engines connect while the task and agent are checked: an engine that is not there is said at once.
    const connecting = connectOwned(startUp, io, options.runtime);
    const [task, engine] = await startUp.step(Promise.all([preflightRun(start.taskDir, start.agentDir, validator), connecting]));
    const arena = options.arena === null ? undefined : arenaSettings(options.arena);
    if (arena !== undefined) preflightArena(task, start.agentDir);
    if (arena !== undefined) options.generations = arena.rounds * arena.codePopulation;
    if (request.workers === undefined) options.workers = workersFor(engine.engines(), options.workers);
    const swept = await startUp.step(engine.sweep());
    if (swept.containers + swept.volumes > 0) io.sink.write(`swept ${plural(swept.containers, "container")} and ${plural(swept.volumes, "volume")} left by dead sessions\n`);
    // Built (or found) before the run folder exists: an image that cannot be built records no run.
    await startUp.step(engine.ensureRuntimeImage());
    const llmProbe = await startUp.step(probeForRun(llmSetup, io.port, options.budgetTokens, io.signal));
    const record = await runRecordOf({ options, task, agentDir: start.agentDir, llmSetup, origin, policy, llmProbe, ...(arena === undefined ? {} : { arena }) });
    const writer = await ArchiveWriter.create(start.root, record);
    await writer.appendEvent({ type: "started", at: record.createdAt, run: record.id, pid: process.pid, host: hostname() });
    io.sink.write(openingLines(record, { task, runDir: writer.runDir, arena, llmSetup, policy, llmProbe }));
    startUp.handOver();
    return executeRun({
      writer,
      task,
      engine,
      validator,
      seedDir: start.agentDir,
      ...sessionIo(io, llmSetup),
    });
  });
}

/**
 * The options read through RunOptions, and everything they name checked before anything starts:
 * a price for --budget-usd, a host that can make the runtime image (macOS or Windows without
 * EVOLVE_BASE_IMAGE), a folder that can take the run, the policy file (a misspelt key must not
 * become a run without it), the --from generation, a model for a task that needs one.
 */
async function startPointOf(request: RunRequest, io: RunIo): Promise<StartPoint> {
  const parsed = RunOptions.safeParse(request);
  if (!parsed.success) throw new EvolveError("invalid_options", `invalid run options: ${z.prettifyError(parsed.error).replace(/\s*\n\s*/g, " ")}`);
  const options = parsed.data;
  const root = resolve(options.out);
  const llmSetup = resolveLlmSetup(io.env, options.model === null ? {} : { model: options.model });
  if (options.budgetUsd !== null && llmSetup.available && llmSetup.price === null) {
    throw new EvolveError("invalid_options", `--budget-usd is set but the price of model "${llmSetup.model}" is unknown`, { hint: "use --budget-tokens for this model" });
  }
  if (typeof io.engine === "function") runtimeBaseImage(io.env);
  await ensureWritableFolder(root, "new-run");
  const policy = options.policy === null ? null : await readRunPolicy(resolve(options.policy));
  const origin = options.from === null ? null : await resolveOrigin(options.from, root);
  const taskDir = options.task !== undefined ? taskDirFor(options.task) : (origin?.taskDir ?? taskDirFor(DEFAULT_TASK));
  const agentDir = origin?.snapshotDir ?? resolve(options.agent);
  await refuseWithoutModel(taskDir, llmSetup);
  return { options, root, llmSetup, policy, origin, taskDir, agentDir };
}

/** The run's opening lines: what it is, where its archive is, its policy and what the model probe found. */
function openingLines(
  record: RunRecord,
  about: { task: Task; runDir: string; arena: ArenaSettings | undefined; llmSetup: LlmSetup; policy: RunPolicy | null; llmProbe: ModelProbe | null },
): string {
  const { config } = record;
  const { arena, llmSetup, policy, llmProbe } = about;
  const shape = arena === undefined ? plural(config.generations, "generation") : `arena ${describeArena(arena)}`;
  const model = llmSetup.available ? `model ${llmSetup.model}` : "offline strategy (no LLM configured)";
  return (
    `run ${record.id}: task ${about.task.manifest.name}, ${shape}, ${plural(config.workers, "worker")}, ${arena === undefined ? `selection ${config.selection}, ` : ""}${model}, seed ${config.seed}\n` +
    `archive ${about.runDir}\n` +
    (policy === null ? "" : `policy: ${describePolicy(policy)}\n`) +
    (llmProbe === null ? "" : `${probeLine(llmProbe)}\n`)
  );
}

/** run.json of a new run. */
async function runRecordOf(parts: {
  options: RunOptions;
  task: Task;
  agentDir: string;
  llmSetup: LlmSetup;
  origin: { from: RunOrigin } | null;
  policy: RunPolicy | null;
  llmProbe: ModelProbe | null;
  arena?: ArenaSettings;
}): Promise<RunRecord> {
  const { options, task, llmSetup, origin, policy, llmProbe, arena } = parts;
  const now = new Date().toISOString();
  return {
    schemaVersion: RUN_SCHEMA_VERSION,
    id: options.runId ?? newRunId(),
    createdAt: now,
    updatedAt: now,
    config: {
      task: { name: task.manifest.name, dir: task.dir },
      agentDir: parts.agentDir,
      generations: options.generations,
      workers: options.workers,
      selection: options.selection,
      seed: options.seed,
      model: llmSetup.available ? llmSetup.model : null,
      runtime: options.runtime,
      limits: {
        budgetTokens: options.budgetTokens,
        budgetUsd: options.budgetUsd,
        generationTokens: options.generationTokens,
        improveTimeoutMs: options.improveTimeoutMs,
        importTimeoutMs: options.importTimeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS,
        checkMemoryMb: options.checkMemoryMb,
        checkTimeoutMs: options.checkTimeoutMs,
        evaluations: options.evaluations,
        // Written only when set: an older harness then still reads the runs that set none.
        ...(options.solveBudgetTokens === null ? {} : { solveBudgetTokens: options.solveBudgetTokens }),
        ...(options.solveGenerationTokens === null ? {} : { solveGenerationTokens: options.solveGenerationTokens }),
      },
      ...(arena === undefined ? {} : { arena }),
      economy: economyFor(options),
    },
    harnessVersion: await harnessVersion(),
    ...(origin === null ? {} : { from: origin.from }),
    ...(policy === null ? {} : { policy }),
    ...(llmProbe === null ? {} : { llmProbe }),
    status: "running",
    rng: null,
  };
}

/** `--from RUN/GEN`: that generation's snapshot, its task, and the lineage recorded in run.json. */
async function resolveOrigin(from: string, root: string): Promise<{ from: RunOrigin; snapshotDir: string; taskDir: string }> {
  const cut = from.lastIndexOf("/");
  const runDir = await resolveRunDir(from.slice(0, cut), root);
  const generation = from.slice(cut + 1);
  const runRecord = await readRunRecord(runDir);
  if (!runRecord.ok) throw new EvolveError("archive_corrupt", `${runRecord.problem.path}: ${runRecord.problem.reason}`);
  const record = await readGeneration(runDir, generation);
  if (!approvalCleared(record)) {
    const verdict = record.approval?.decision?.verdict === "rejected" ? "was rejected" : "is waiting for approval";
    throw new EvolveError("invalid_options", `${from} ${verdict}; only generations the run's policy lets through can be branched from`, {
      hint: verdict === "was rejected" ? "branch from another generation (evolve tree shows them)" : `evolve approve ${from.slice(0, cut)} ${generation} first`,
    });
  }
  if (record.snapshotHash === null) {
    throw new EvolveError("unknown_generation", `${from} has no snapshot to branch from (${record.status.kind === "invalid" ? `${record.status.stage}: ${record.status.code}` : "none recorded"})`);
  }
  const lineage = lineageOf((await readRun(runDir)).generations, generation);
  return {
    from: { run: runRecord.value.id, generation, lineage },
    snapshotDir: generationPaths(runDir, generation).snapshot,
    taskDir: recordedTaskDir(runRecord.value.config.task),
  };
}

function arenaSettings(options: ArenaOptions): ArenaSettings {
  return { mode: options.codePopulation === 1 && options.testPopulation === 1 ? "duel" : "population", ...options };
}

function describeArena(arena: ArenaSettings): string {
  const shape = arena.mode === "duel" ? "duel" : `populations ${arena.codePopulation} code, ${arena.testPopulation} tests, best kept every ${plural(arena.tournamentEvery, "round")}`;
  return `${shape}, ${plural(arena.rounds, "round")}, suite cap ${arena.suiteCap}`;
}

/** An arena needs the task's oracle and a tester in the agent tree: said before anything starts. */
function preflightArena(task: Task, agentDir: string): void {
  if (task.oracle === null) {
    throw new EvolveError("invalid_task", `task ${task.manifest.name} has no oracle, so no test can be judged in an arena`, { hint: "export an oracle from its grader.ts (README, \"Your own task\"); email-validation and snake have one" });
  }
  if (!existsSync(join(agentDir, ...TESTER_FILE.split("/")))) {
    throw new EvolveError("invalid_agent", `the agent tree ${agentDir} has no tester/index.ts, so it cannot propose tests in an arena`, { hint: "the seed agent's tester/ is a start (README, \"Arena runs\")" });
  }
}

/** The policy in one line for the run's opening lines. */
function describePolicy(policy: RunPolicy): string {
  const parts: string[] = [];
  if ((policy.protectedPaths?.length ?? 0) > 0) parts.push(`protected ${policy.protectedPaths?.join(", ")}`);
  const rules = policy.approval;
  const asks: string[] = [];
  if ((rules?.paths?.length ?? 0) > 0) asks.push(`changes to ${rules?.paths?.join(", ")}`);
  if (rules?.maxChangedLines !== undefined) asks.push(`more than ${rules.maxChangedLines} changed lines`);
  if (rules?.addOrDeleteFiles === true) asks.push("added or deleted files");
  if (asks.length > 0) parts.push(`approval for ${asks.join(", ")}${rules?.timeoutMinutes === undefined ? "" : ` (timeout ${rules.timeoutMinutes} min)`}`);
  return parts.length === 0 ? "none in effect" : parts.join("; ");
}
