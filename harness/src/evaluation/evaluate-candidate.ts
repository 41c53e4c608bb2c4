/**
 * Staged or racing evaluation of one candidate's emitted JS in fresh hardened containers:
 * stage1 (small visible subset) → the rest of the visible split above the threshold (or, with
 * `race`, the visible split raced against the parent: race-visible.ts) → the held-out split
 * when asked. Held-out instances only ever enter held-out sessions.
 */
import { openSolveSession, type AgentContainerOptions, type RunOutcome, type SandboxEngine, type SessionImport } from "../../../sandbox/src/index.js";
import type { SandboxLabels, SandboxLimits } from "../../../sandbox/src/index.js";
import type { Runtime } from "../kernel/index.js";
import { EvolveError } from "../kernel/index.js";
import { EvaluationResult, type EvaluationStage, type StageResult } from "../results/index.js";
import type { Task } from "./load-task.js";
import type { TaskInstance } from "./grader.js";
import { runStage, type StageEnv, type StageRun, type StageSession } from "./run-stage.js";
import { raceOver, raceVisible, type RaceOptions, type VisiblePart } from "./race-visible.js";
import { createCodeTester } from "./code-tests.js";

/** Which visible stages run: "staged" obeys the threshold; "full" always runs both; "stage1" stops after it. */
export type VisiblePolicy = "staged" | "full" | "stage1";

export interface EvaluateOptions {
  engine: SandboxEngine;
  /** The runtime image (or its tag). */
  image: AgentContainerOptions["image"];
  task: Task;
  /** Host dir with the emitted JS that passed validation (and package.json {"type":"module"}). */
  buildDir: string;
  labels: SandboxLabels;
  runtime?: Runtime;
  limits?: Partial<SandboxLimits>;
  seed: number;
  visible?: VisiblePolicy;
  /** Also score the held-out split (for candidates that passed validation). */
  heldout?: boolean;
  /**
   * With `heldout`: a reason not to score it after all, given the visible result (the run's
   * held-out rule); null: score it.
   */
  heldoutUnless?: (visible: { score: number | null; complete: boolean }) => string | null;
  /** Race the visible split against the parent instead of staging it (never with `subset`). */
  race?: RaceOptions;
  /**
   * Only these instances of the visible split, as one "visible" stage (a meta agent's
   * ctx.evaluate of listed ids): no staging, and never with `heldout`.
   */
  subset?: readonly TaskInstance[];
  /** Overrides of the manifest. */
  repeats?: number;
  instanceTimeoutMs?: number;
  evaluationTimeoutMs?: number;
  /** Fresh sessions allowed per stage after a session died (default 3). */
  maxRestarts?: number;
  /** Largest accepted JSON answer of one call (default 1 MiB). */
  outputCapBytes?: number;
  llmAvailable?: boolean;
  onLlm?: AgentContainerOptions["onLlm"];
  /** The phase label of the graders' code-test containers (default "grade-exec"; a ctx.evaluate draft's: "draft-grade-exec"). */
  execPhase?: string;
  /**
   * With `race`: a whole run of this build's visible split in race order, on the same seed and
   * limits (a ctx.evaluate draft of the same tree, draft-run.ts), and that call's number. The
   * race is read off it (raceOver) instead of run, unless the race would have stopped early.
   */
  visibleDone?: { run: StageRun; call: number };
  /**
   * A session already open for the first visible stage (evaluate-imported.ts opens it with the
   * import check): used once, as that stage's first session, and never for the held-out split.
   */
  firstSession?: StageSession;
}

const DEFAULT_OUTPUT_CAP = 1024 * 1024;
const DEFAULT_MAX_RESTARTS = 3;
// Container start and module load happen before the first call; they are not the candidate's time.
const STARTUP_SLACK_MS = 20_000;

function validate(opts: EvaluateOptions): void {
  const problems: string[] = [];
  const positive = (name: string, v: number | undefined): void => {
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) problems.push(`${name} must be a positive integer`);
  };
  positive("repeats", opts.repeats);
  positive("instanceTimeoutMs", opts.instanceTimeoutMs);
  positive("evaluationTimeoutMs", opts.evaluationTimeoutMs);
  positive("outputCapBytes", opts.outputCapBytes);
  if (opts.maxRestarts !== undefined && !(Number.isInteger(opts.maxRestarts) && opts.maxRestarts >= 0))
    problems.push("maxRestarts must be a non-negative integer");
  if (!Number.isInteger(opts.seed)) problems.push("seed must be an integer");
  if (opts.subset !== undefined && opts.heldout === true) problems.push("a subset of the visible split is never evaluated with the held-out split");
  if (opts.race !== undefined && opts.visible !== undefined && opts.visible !== "staged") problems.push("a race decides itself how much of the visible split runs");
  if (opts.subset !== undefined && opts.subset.some((i) => !opts.task.visible.includes(i))) problems.push("a subset must be instances of the visible split");
  if (problems.length > 0) throw new EvolveError("invalid_options", `evaluation options: ${problems.join("; ")}`);
}

/** The stage the first visible session serves: one raced or listed "visible" stage, else stage 1. */
export function firstVisibleStage(opts: Pick<EvaluateOptions, "race" | "subset">): EvaluationStage {
  return opts.race !== undefined || opts.subset !== undefined ? "visible" : "stage1";
}

/** Evaluates a candidate; candidate failures are zero scores in the result, never exceptions. */
export async function evaluateCandidate(opts: EvaluateOptions): Promise<EvaluationResult> {
  validate(opts);
  const opener = sessionOpener(opts);
  try {
    return await evaluateWith(opts, opener.open);
  } finally {
    // A first session no stage took (a stage with nothing to run) is not left running.
    await opener.untaken()?.close();
  }
}

async function evaluateWith(opts: EvaluateOptions, open: StageEnv["open"]): Promise<EvaluationResult> {
  const started = Date.now();
  const { manifest } = opts.task;
  const env = stageEnvOf(opts, open);
  const drafted = opts.race === undefined ? undefined : opts.visibleDone;
  const done = drafted === undefined || opts.race === undefined ? null : raceOver(drafted.run, opts.task.visible, manifest.stages.stage1Size, manifest.stages.threshold, opts.seed, opts.race);
  const visible =
    done !== null
      ? done
      : opts.race !== undefined && opts.subset === undefined
        ? await raceVisible(opts.task.visible, manifest.stages.stage1Size, manifest.stages.threshold, env(), opts.race)
        : await stagedVisible(opts, env());
  const stages: StageResult[] = [...visible.stages];
  const visibleScores = stages.flatMap((s) => s.instances.map((i) => i.score));
  const visibleScore = visibleScores.length === 0 ? null : visibleScores.reduce((a, b) => a + b, 0) / visibleScores.length;
  const heldout = opts.heldout === true ? await heldoutPart(opts, env, { score: visibleScore, complete: visible.coverage.evaluated >= visible.coverage.of }) : null;
  if (heldout?.stage !== undefined) stages.push(heldout.stage.result);

  return EvaluationResult.parse({
    stages,
    visibleScore,
    heldoutScore: heldout?.stage?.result.score ?? null,
    passedStage1: visible.passedStage1,
    computeMs: visible.computeMs + (heldout?.stage?.computeMs ?? 0),
    durationMs: Date.now() - started,
    coverage: visible.coverage,
    ...(visible.race === undefined ? {} : { race: visible.race }),
    ...(heldout?.skipped === undefined ? {} : { heldoutSkipped: heldout.skipped }),
    ...(done === null || drafted === undefined ? {} : { visibleFromDraft: drafted.call }),
  });
}

/** The held-out split, or the caller's reason not to score it (its held-out rule). */
async function heldoutPart(
  opts: EvaluateOptions,
  env: () => StageEnv,
  visible: { score: number | null; complete: boolean },
): Promise<{ stage?: Awaited<ReturnType<typeof runStage>>; skipped?: string }> {
  const skipped = opts.heldoutUnless?.(visible) ?? null;
  if (skipped !== null) return { skipped };
  return { stage: await runStage("heldout", "heldout", opts.task.heldout, env()) };
}

/**
 * A fresh stage environment per split: each split gets its own whole-evaluation budget, so a
 * slow visible run cannot starve the held-out record.
 */
function stageEnvOf(opts: EvaluateOptions, open: StageEnv["open"]): () => StageEnv {
  const { manifest, grader } = opts.task;
  const evaluationTimeoutMs = opts.evaluationTimeoutMs ?? manifest.evaluationTimeoutMs;
  return () => {
    const splitDeadline = Date.now() + evaluationTimeoutMs;
    // Code tests a grader asks for run through the same engine (placed and counted like the rest).
    const runTests = createCodeTester({
      engine: opts.engine,
      image: opts.image,
      labels: { ...opts.labels, phase: opts.execPhase ?? "grade-exec" },
      ...(opts.runtime === undefined ? {} : { runtime: opts.runtime }),
      ...(opts.limits === undefined ? {} : { limits: opts.limits }),
      deadline: () => splitDeadline,
    });
    return {
      grader,
      open,
      limits: {
        instanceTimeoutMs: opts.instanceTimeoutMs ?? manifest.instanceTimeoutMs,
        splitDeadline,
        outputCapBytes: opts.outputCapBytes ?? DEFAULT_OUTPUT_CAP,
      },
      repeats: opts.repeats ?? manifest.repeats,
      maxRestarts: opts.maxRestarts ?? DEFAULT_MAX_RESTARTS,
      seed: opts.seed,
      runTests,
    };
  };
}

/**
 * Opens the task agent's solve session for each stage, in a fresh container of the
 * evaluation's engine; the caller's first session (`firstSession`) serves the first visible
 * stage instead. Held-out instances only ever enter a session opened for them.
 */
function sessionOpener(opts: EvaluateOptions): { open: StageEnv["open"]; untaken(): StageSession | null } {
  let first = opts.firstSession ?? null;
  return {
    open: async (stage, deadline) => {
      if (first === null || stage === "heldout") return openCandidateSession(opts, stage, deadline);
      const session = first;
      first = null;
      return session;
    },
    untaken: () => first,
  };
}

/** A stage's session that may have loaded the whole agent first (`check`): `imported` says how. */
export interface CandidateSession extends StageSession {
  readonly imported: SessionImport | null;
  /** Ends and removes the container; how it ended. */
  end(): Promise<RunOutcome>;
}

/**
 * Opens a fresh solve session of the candidate for `stage`, its container alive until
 * `deadline` (epoch ms) and a start-up slack; with `check`, it loads the whole agent first
 * (the import check in this container).
 */
export async function openCandidateSession(opts: EvaluateOptions, stage: EvaluationStage, deadline: number, check?: { timeoutMs: number }): Promise<CandidateSession> {
  const session = await openSolveSession({
    engine: opts.engine,
    image: opts.image,
    // A caller's phase label names whose evaluation it is ("draft-evaluate"): the stage is added to it.
    labels: { ...opts.labels, phase: `${opts.labels.phase ?? "evaluate"}-${stage}` },
    buildDir: opts.buildDir,
    ...(opts.runtime === undefined ? {} : { runtime: opts.runtime }),
    ...(opts.limits === undefined ? {} : { limits: opts.limits }),
    timeoutMs: Math.max(1, deadline - Date.now()) + STARTUP_SLACK_MS,
    stdoutCapBytes: (opts.outputCapBytes ?? DEFAULT_OUTPUT_CAP) * 4 + 64 * 1024,
    task: opts.task.manifest.name,
    seed: opts.seed,
    llmAvailable: opts.llmAvailable ?? false,
    ...(opts.onLlm === undefined ? {} : { onLlm: opts.onLlm }),
    ...(check === undefined ? {} : { check }),
  });
  return {
    get alive() {
      return session.alive;
    },
    imported: session.imported,
    call: (input, o) => session.call(input, o),
    // The stage's answers are in: its stderr is what it needs, not Docker's teardown of the container.
    close: async () => ({ stderr: await session.release() }),
    end: () => session.close(),
  };
}

/** The staged visible part: stage 1 (or the listed subset), then the rest when the policy and the threshold allow. */
async function stagedVisible(opts: EvaluateOptions, visibleEnv: StageEnv): Promise<VisiblePart> {
  const { manifest } = opts.task;
  const stages: StageResult[] = [];
  const first = opts.subset === undefined ? { stage: "stage1" as const, instances: opts.task.visible.slice(0, manifest.stages.stage1Size) } : { stage: "visible" as const, instances: opts.subset };
  const stage1 = await runStage(first.stage, "visible", first.instances, visibleEnv);
  stages.push(stage1.result);
  let computeMs = stage1.computeMs;
  const passedStage1 = stage1.result.score >= manifest.stages.threshold;

  const policy = opts.visible ?? "staged";
  const rest = opts.subset === undefined ? opts.task.visible.slice(manifest.stages.stage1Size) : [];
  const runRest = rest.length > 0 && (policy === "full" || (policy === "staged" && passedStage1));
  if (runRest) {
    const run = await runStage("visible", "visible", rest, visibleEnv);
    stages.push(run.result);
    computeMs += run.computeMs;
  }
  const evaluated = stages.reduce((n, s) => n + s.instances.length, 0);
  return { stages, computeMs, passedStage1, coverage: { evaluated, of: first.instances.length + rest.length } };
}
