/** The one candidate pipeline: self-modify → extract → validate → build (and evaluate), shared by children, test generations and ctx.evaluate drafts. */
export { MIN_WINDOW_MS, createDraftEvaluator, evaluateSlackMs, type DraftEvaluator, type DraftEvaluatorInput } from "./draft-evaluator.js";
export { DraftRequest, MAX_LISTED_IDS, planDraftRequest, type DraftPlan } from "./draft-request.js";
export { evaluateStep, evaluateTimed, importGateOf, scoresOf, type EvaluateStepInput, type EvaluateTimed } from "./evaluate-step.js";
export { buildImproveRequest, childRequest, type RequestInputs } from "./improve-request.js";
export { selfModifyStep, type SelfModifyInput, type SelfModifyResult } from "./self-modify-step.js";
export { validateStep, type ValidateStepInput, type ValidateStepResult } from "./validate-step.js";
export { runCandidate, type Candidate, type CandidateInput, type CandidateSource, type CandidateTree } from "./candidate.js";
export { ATTEMPT_SUMMARY_CHARS, attemptViews, attemptsNear } from "./attempts.js";
export { SEED_EVALUATION, STAGED_EVALUATION, childEvaluationPlan, recordedEvaluationPlan, type EvaluationPlan } from "./evaluation-plan.js";
