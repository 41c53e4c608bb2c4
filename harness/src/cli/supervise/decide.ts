/**
 * `evolve approve` and `evolve reject`: one decision on one pending child, from a person, at
 * any time — while the run is live (another process owns it) or after it ended. The decision
 * is its own file, written whole and linked into place only if no decision exists yet
 * (archive/approval-decisions.ts), then logged in events.jsonl; the live run picks it up
 * before its next selection. Asking for something that cannot be decided is a usage error.
 */
import { userInfo } from "node:os";
import {
  DECISION_SCHEMA_VERSION,
  ensureWritableFolder,
  MAX_NOTE_CHARS,
  readGeneration,
  readRunRecord,
  recordDecision,
  timeoutDecision,
  type ApprovalDecision,
} from "../../archive/index.js";
import { EvolveError } from "../../kernel/index.js";
import { timedOut } from "../../supervision/index.js";
import { resolveGenerationArg, resolveRunArg } from "../inspect/run-arg.js";

/** What a person asks for. */
export interface DecisionRequest {
  run: string;
  generation: string;
  /** --out: the archive root the run id is under. */
  out: string | undefined;
  verdict: ApprovalDecision["verdict"];
  /** --note of an approval, --reason of a rejection. */
  note: string | null;
  /** Who decides: the OS user unless a test says otherwise. */
  by?: string;
}

/** The OS user running this process (the "who" of a decision). */
export function osUser(): string {
  try {
    const name = userInfo().username;
    if (name !== "") return name;
  } catch {
    // No passwd entry for this uid (some containers): fall back below.
  }
  return process.env["USER"] ?? process.env["LOGNAME"] ?? `uid ${process.getuid?.() ?? "?"}`;
}

/** Records the decision and returns it with the run folder; a request that cannot be decided throws. */
export async function decide(request: DecisionRequest): Promise<{ runDir: string; decision: ApprovalDecision }> {
  if (request.note !== null && request.note.length > MAX_NOTE_CHARS) {
    throw new EvolveError("invalid_options", `the ${request.verdict === "approved" ? "note" : "reason"} has ${request.note.length} characters; at most ${MAX_NOTE_CHARS}`);
  }
  const runDir = await resolveRunArg(request.run, request.out);
  // A decision that could not be written is no decision: said before anything is judged.
  await ensureWritableFolder(runDir, "run");
  // Ids and numbers only: "best" or "latest" would name a different child as the run goes on.
  const id = resolveGenerationArg(request.generation, null);
  const record = await readGeneration(runDir, id);
  const verb = request.verdict === "approved" ? "approve" : "reject";
  if (record.status.kind === "invalid") {
    throw new EvolveError("invalid_options", `${id} is invalid (${record.status.stage}: ${record.status.code}): only valid children wait for approval`);
  }
  if (record.approval === undefined) {
    throw new EvolveError("invalid_options", `${id} does not need approval: no approval rule of the run's policy applied to it`, {
      hint: "evolve pending RUN lists the children that wait for a decision",
    });
  }
  const earlier = record.approval.decision;
  if (earlier !== null) throw alreadyDecided(id, earlier, verb);
  if (timedOut(record.approval)) {
    // Written down now if the run is not there to do it, so every reader sees the same answer.
    const run = await readRunRecord(runDir);
    const written = await recordDecision(runDir, timeoutDecision(id, run.ok ? run.value.policy?.approval?.timeoutMinutes : undefined));
    const decision = written.written ? written.decision : written.existing;
    if (decision !== null && !decision.timedOut) throw alreadyDecided(id, decision, verb);
    throw new EvolveError("invalid_options", `cannot ${verb} ${id}: it timed out at ${record.approval.deadline ?? "its deadline"} and is rejected (approval.timeoutMinutes)`);
  }
  const decision: ApprovalDecision = {
    schemaVersion: DECISION_SCHEMA_VERSION,
    generation: id,
    verdict: request.verdict,
    by: request.by ?? osUser(),
    at: new Date().toISOString(),
    note: request.note,
    timedOut: false,
  };
  const written = await recordDecision(runDir, decision);
  if (!written.written) {
    if (written.existing === null) throw new EvolveError("archive_corrupt", `${id} has a decision file that does not read; see evolve show`);
    throw alreadyDecided(id, written.existing, verb);
  }
  return { runDir, decision };
}

function alreadyDecided(id: string, decision: ApprovalDecision, verb: string): EvolveError {
  const by = decision.timedOut ? "the timeout" : decision.by;
  return new EvolveError("invalid_options", `cannot ${verb} ${id}: it was already ${decision.verdict} by ${by} at ${decision.at}; a decision is final`);
}
