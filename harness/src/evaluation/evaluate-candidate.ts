/**
 * Staged evaluation of one candidate's emitted JS in fresh hardened containers:
 * stage1 (small visible subset) → the rest of the visible split above the threshold →
 * the held-out split when asked. Held-out instances only ever enter held-out sessions.
 */
import { openSolveSession, type AgentContainerOptions, type RunOutcome, type SandboxEngine, type SessionImport } from "../../../sandbox/src/index.js";
import type { SandboxLabels, SandboxLimits } from "../../../sandbox/src/index.js";
import type { Runtime } from "../kernel/index.js";
import { EvolveError } from "../kernel/index.js";
import { EvaluationResult, type EvaluationStage, type StageResult } from "../results/index.js";
import type { Task } from "./load-task.js";
import type { TaskInstance } from "./grader.js";
import { runStage, type StageEnv, type StageSession } from "./run-stage.js";

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
  /** A session already open for the first stage (evaluate-imported.ts opens it with the import check); used once, as that stage's first session. */
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
  if (opts.subset !== undefined && opts.subset.some((i) => !opts.task.visible.includes(i))) problems.push("a subset must be instances of the visible split");
  if (problems.length > 0) throw new EvolveError("invalid_options", `evaluation options: ${problems.join("; ")}`);
}

/** A stage's session that may have loaded the whole agent first (`check`): `imported` says how. */
export interface CandidateSession extends StageSession {
  readonly imported: SessionImport | null;
  /** Ends and removes the container; how it ended. */
  end(): Promise<RunOutcome>;
}

/** Opens a fresh solve session of the candidate for `stage`, its container alive until `deadline` (epoch ms) and a start-up slack. */
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
    close: async () => ({ stderr: (await session.close()).stderr }),
    end: () => session.close(),
  };
}

/** Evaluates a candidate; candidate failures are zero scores in the result, never exceptions. */
export async function evaluateCandidate(opts: EvaluateOptions): Promise<EvaluationResult> {
  validate(opts);
  const started = Date.now();
  const { manifest, grader } = opts.task;
  const evaluationTimeoutMs = opts.evaluationTimeoutMs ?? manifest.evaluationTimeoutMs;

  let opened = opts.firstSession ?? null;
  const open = async (stage: EvaluationStage, deadline: number): Promise<StageSession> => {
    if (opened === null) return openCandidateSession(opts, stage, deadline);
    const session = opened;
    opened = null;
    return session;
  };

  // Each split gets its own whole-evaluation budget, so a slow visible run cannot starve the held-out record.
  const env = (): StageEnv => ({
    grader,
    open,
    limits: {
      instanceTimeoutMs: opts.instanceTimeoutMs ?? manifest.instanceTimeoutMs,
      splitDeadline: Date.now() + evaluationTimeoutMs,
      outputCapBytes: opts.outputCapBytes ?? DEFAULT_OUTPUT_CAP,
    },
    repeats: opts.repeats ?? manifest.repeats,
    maxRestarts: opts.maxRestarts ?? DEFAULT_MAX_RESTARTS,
    seed: opts.seed,
  });

  const stages: StageResult[] = [];
  let computeMs = 0;
  const visibleEnv = env();
  const first = opts.subset === undefined ? { stage: "stage1" as const, instances: opts.task.visible.slice(0, manifest.stages.stage1Size) } : { stage: "visible" as const, instances: opts.subset };
  const stage1 = await runStage(first.stage, "visible", first.instances, visibleEnv);
  stages.push(stage1.result);
  computeMs += stage1.computeMs;
  const passedStage1 = stage1.result.score >= manifest.stages.threshold;

  const policy = opts.visible ?? "staged";
  const rest = opts.subset === undefined ? opts.task.visible.slice(manifest.stages.stage1Size) : [];
  const runRest = rest.length > 0 && (policy === "full" || (policy === "staged" && passedStage1));
  if (runRest) {
    const run = await runStage("visible", "visible", rest, visibleEnv);
    stages.push(run.result);
    computeMs += run.computeMs;
  }

  let heldoutScore: number | null = null;
  if (opts.heldout === true) {
    const run = await runStage("heldout", "heldout", opts.task.heldout, env());
    stages.push(run.result);
    computeMs += run.computeMs;
    heldoutScore = run.result.score;
  }

  const visibleScores = stages.filter((s) => s.stage !== "heldout").flatMap((s) => s.instances.map((i) => i.score));
  return EvaluationResult.parse({
    stages,
    visibleScore: visibleScores.length === 0 ? null : visibleScores.reduce((a, b) => a + b, 0) / visibleScores.length,
    heldoutScore,
    passedStage1,
    computeMs,
    durationMs: Date.now() - started,
  });
}
