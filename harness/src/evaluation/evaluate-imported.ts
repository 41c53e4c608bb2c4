/**
 * The import gate and the evaluation in one container: the candidate's first evaluation
 * session loads the whole agent first (solve, improve, propose when there is a tester), as
 * the import check's own container did, within the import timeout; when the exports pass,
 * the same session goes on to the first stage's instances. A load that fails is the
 * candidate's import failure, and nothing is evaluated. Later stages (the rest of the visible
 * split, the held-out split) still get fresh containers of their own.
 */
import type { ImportCheck } from "../../../sandbox/src/index.js";
import type { EvaluationResult, ValidationFailure } from "../results/index.js";
import { evaluateCandidate, firstVisibleStage, openCandidateSession, type EvaluateOptions } from "./evaluate-candidate.js";

/** The import gate, as the caller's validation judges it. */
export interface ImportGate {
  timeoutMs: number;
  /** Whether the exports the load reported are the contract's. */
  accepts(exports: Record<string, string>): boolean;
  /** The failure of a load that did not pass (with the container's outcome: its stderr goes into the message). */
  failure(check: ImportCheck): ValidationFailure;
}

export type ImportedEvaluation =
  | { failure: ValidationFailure; evaluation: null; importMs: number }
  | { failure: null; evaluation: EvaluationResult; importMs: number };

/** Loads the candidate in its first evaluation session, then evaluates it there and in the later stages' sessions. */
export async function evaluateImported(opts: EvaluateOptions, gate: ImportGate): Promise<ImportedEvaluation> {
  const started = performance.now();
  const stage = firstVisibleStage(opts);
  const deadline = Date.now() + (opts.evaluationTimeoutMs ?? opts.task.manifest.evaluationTimeoutMs);
  const session = await openCandidateSession(opts, stage, deadline, { timeoutMs: gate.timeoutMs });
  const imported = session.imported ?? { ok: false as const, kind: "protocol" as const, reason: "the session did not load the agent" };
  const importMs = performance.now() - started;
  if (imported.ok && gate.accepts(imported.exports)) {
    try {
      return { failure: null, evaluation: await evaluateCandidate({ ...opts, firstSession: session }), importMs };
    } catch (error) {
      // The harness failed: the session is closed whether or not the evaluation took it (closing is idempotent).
      await session.end().catch(() => undefined);
      throw error;
    }
  }
  const outcome = await session.end();
  return { failure: gate.failure({ ...imported, outcome }), evaluation: null, importMs };
}
