/**
 * decisions/<gen>.json: the decisions on pending children, one file each, written by
 * whichever process decides — `evolve approve`/`reject` (often while the run is live, in
 * another process) or the run itself at a timeout. Concurrency is settled by the file
 * system: the decision is written whole to a temporary file and hard-linked to its name,
 * which fails if the name exists, so the first decision wins (an approval racing the
 * timeout, two people at once) and a reader sees a whole file or none. The run never
 * rewrites generation.json for a decision; it re-reads this folder before each selection.
 */
import { readFileSync, statSync } from "node:fs";
import { link, mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { EvolveError } from "../kernel/index.js";
import { type ArchiveEvent } from "./archive-event.js";
import { appendRunEvent } from "./archive-writer.js";
import { ApprovalDecision, DECISION_SCHEMA_VERSION } from "./approval-record.js";
import { syncDirectory, TEMP_PREFIX, tempPathFor, toJsonText, writeFileSynced } from "./atomic-fs.js";
import { GenerationId } from "./generation-id.js";
import type { GenerationRecord } from "./generation-record.js";
import { type ArchiveProblem, formatZodError, parseJsonText } from "./parse-problem.js";

export const DECISIONS_DIR = "decisions";

/** Where the decision on generation `id` is (or will be) stored. */
export function decisionPath(runDir: string, id: string): string {
  return join(runDir, DECISIONS_DIR, `${id}.json`);
}

/** The outcome of writing a decision: written, or beaten to it by an earlier one. */
export type DecisionWrite = { written: true; decision: ApprovalDecision } | { written: false; existing: ApprovalDecision | null };

const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/** Stores `decision` unless one exists for its generation (the first decision stands). */
export async function writeDecision(runDir: string, decision: ApprovalDecision): Promise<DecisionWrite> {
  const parsed = ApprovalDecision.safeParse(decision);
  if (!parsed.success) throw new EvolveError("internal", `refusing to write an invalid decision: ${formatZodError(parsed.error)}`);
  const target = decisionPath(runDir, parsed.data.generation);
  await mkdir(join(runDir, DECISIONS_DIR), { recursive: true });
  const temp = tempPathFor(target);
  const text = toJsonText(parsed.data);
  try {
    await writeFileSynced(temp, text);
    try {
      await link(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (code === "EEXIST") return { written: false, existing: readDecision(runDir, parsed.data.generation) };
      if (!NO_HARD_LINKS.has(code)) throw error;
      // A file system without hard links: still exclusive ("wx"), though a reader racing the
      // write may see a partial file once (reported and skipped, then read whole).
      try {
        await writeFileSynced(target, text);
      } catch (inner) {
        if ((inner as NodeJS.ErrnoException).code === "EEXIST") return { written: false, existing: readDecision(runDir, parsed.data.generation) };
        throw inner;
      }
    }
  } finally {
    await rm(temp, { force: true });
  }
  await syncDirectory(join(runDir, DECISIONS_DIR));
  return { written: true, decision: parsed.data };
}

/** The rejection of a request nobody answered before its deadline (`timeoutMinutes` of the policy, for the words). */
export function timeoutDecision(generation: string, timeoutMinutes: number | undefined, at: Date = new Date()): ApprovalDecision {
  const within = timeoutMinutes === undefined ? "before its deadline" : `within ${timeoutMinutes} minute${timeoutMinutes === 1 ? "" : "s"}`;
  return {
    schemaVersion: DECISION_SCHEMA_VERSION,
    generation,
    verdict: "rejected",
    by: "timeout",
    at: at.toISOString(),
    note: `nobody answered ${within} (approval.timeoutMinutes)`,
    timedOut: true,
  };
}

/** The event that logs a decision. */
export function decisionEvent(decision: ApprovalDecision): ArchiveEvent {
  const base = { at: decision.at, generation: decision.generation, by: decision.by };
  return decision.verdict === "approved"
    ? { type: "approved", ...base, note: decision.note }
    : { type: "rejected", ...base, reason: decision.note, timedOut: decision.timedOut };
}

/** Writes the decision and, when it is the one that stands, logs it in events.jsonl. */
export async function recordDecision(runDir: string, decision: ApprovalDecision): Promise<DecisionWrite> {
  const result = await writeDecision(runDir, decision);
  if (result.written) await appendRunEvent(runDir, decisionEvent(result.decision));
  return result;
}

/** No decision file comes near this (a note is capped at MAX_NOTE_CHARS); a bigger one is not read. */
const MAX_DECISION_BYTES = 64 * 1024;

/** Every decision of a run by generation id; unreadable files are problems. */
export async function readDecisions(runDir: string): Promise<{ decisions: Map<string, ApprovalDecision>; problems: ArchiveProblem[] }> {
  const dir = join(runDir, DECISIONS_DIR);
  const decisions = new Map<string, ApprovalDecision>();
  const problems: ArchiveProblem[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { decisions, problems };
    throw new EvolveError("archive_corrupt", `cannot list ${dir}`, { cause: error });
  }
  for (const name of names) {
    if (name.startsWith(TEMP_PREFIX)) continue;
    const path = join(dir, name);
    const id = name.endsWith(".json") ? name.slice(0, -".json".length) : "";
    if (!GenerationId.safeParse(id).success) {
      problems.push({ path, reason: "not a decision file (decisions/<gen>.json)" });
      continue;
    }
    const decision = readDecisionFile(path, id);
    if (decision.ok) decisions.set(id, decision.value);
    else problems.push({ path, reason: decision.reason });
  }
  return { decisions, problems };
}

function readDecisionFile(path: string, id: string): { ok: true; value: ApprovalDecision } | { ok: false; reason: string } {
  let text: string;
  try {
    const bytes = statSync(path).size;
    if (bytes > MAX_DECISION_BYTES) return { ok: false, reason: `${bytes} bytes, more than any decision the harness writes` };
    text = readFileSync(path, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { ok: false, reason: missing ? "missing file" : `unreadable: ${String(error)}` };
  }
  const parsed = parseJsonText(text, ApprovalDecision);
  if (!parsed.ok) return parsed;
  if (parsed.value.generation !== id) return { ok: false, reason: `decision for ${parsed.value.generation} in the file of ${id}` };
  return parsed;
}

/** The decision on one generation, if any (an unreadable file reads as none, reported by readDecisions). */
export function readDecision(runDir: string, id: string): ApprovalDecision | null {
  const result = readDecisionFile(decisionPath(runDir, id), id);
  return result.ok ? result.value : null;
}

/**
 * Records with their decisions joined in. A decision for a generation that asked for none
 * is a problem (and ignored): only a request can be decided.
 */
export function joinDecisions<G extends Pick<GenerationRecord, "id" | "approval">>(
  records: readonly G[],
  decisions: ReadonlyMap<string, ApprovalDecision>,
  runDir: string,
): { generations: G[]; problems: ArchiveProblem[] } {
  const problems: ArchiveProblem[] = [];
  const known = new Set(records.map((g) => g.id));
  const asked = new Set<string>();
  const generations = records.map((g) => {
    if (g.approval === undefined) return g;
    asked.add(g.id);
    return { ...g, approval: { ...g.approval, decision: decisions.get(g.id) ?? null } };
  });
  for (const id of decisions.keys()) {
    if (!asked.has(id) && known.has(id)) problems.push({ path: decisionPath(runDir, id), reason: `${id} did not ask for approval; the decision is ignored` });
  }
  return { generations, problems };
}
