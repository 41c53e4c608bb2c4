/**
 * Reading the archive back, every record through zod. A corrupt, truncated or
 * schema-violating record is reported by path with the reason and skipped: never fatal
 * to reading the rest, never silently dropped.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { z } from "zod";
import { EvolveError } from "../kernel/index.js";
import { ArchiveEvent, TranscriptLine } from "./archive-event.js";
import { joinDecisions, readDecision, readDecisions } from "./approval-decisions.js";
import { EVENTS_FILE, generationPaths, generationRecordPath, RUN_FILE, SUMMARIES_FILE } from "./archive-paths.js";
import { TEMP_PREFIX } from "./atomic-fs.js";
import { GenerationRecord } from "./generation-record.js";
import { GenerationSummary } from "./generation-summary.js";
import { GenerationId, parseGenerationId } from "./generation-id.js";
import type { ArchiveProblem } from "./parse-problem.js";
import { parseJsonText } from "./parse-problem.js";
import { RunRecord } from "./run-record.js";
import { SummaryIndex } from "./summary-index.js";

/** A run found under an archive root. */
export interface RunListing {
  readonly id: string;
  readonly dir: string;
  readonly run: RunRecord;
  /** Generation folders on disk (not read: cheap enough for `evolve ls`). */
  readonly generationCount: number;
}

/** A run read back: its record (null if run.json is unreadable), generations in id order with their decisions joined. */
export interface RunContents<G extends RecordLike = GenerationRecord> {
  readonly dir: string;
  readonly run: RunRecord | null;
  readonly generations: G[];
  readonly problems: ArchiveProblem[];
}

/** A record as read: whole, or its summary (generation-summary.ts). */
type RecordLike = GenerationRecord | GenerationSummary;

/**
 * Records are read synchronously in chunks, yielding to the event loop between chunks:
 * thousands of small async reads queue on libuv's four threads and were ~10× slower on a
 * loaded machine, while a chunk of sync reads blocks for only a few milliseconds.
 */
const READ_CHUNK = 128;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function mapChunked<T, R>(items: readonly T[], fn: (item: T) => R): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % READ_CHUNK === 0) await yieldToEventLoop();
    out.push(fn(items[i] as T));
  }
  return out;
}

type TextResult = { ok: true; text: string } | { ok: false; reason: string };

/**
 * No file the harness writes into an archive comes near this (a patch of the largest tree
 * the caps allow is ~17 MiB); a bigger one is corrupt, and is not read into memory.
 */
export const MAX_ARCHIVE_FILE_BYTES = 64 * 1024 * 1024;

function tooLarge(bytes: number): TextResult | null {
  return bytes > MAX_ARCHIVE_FILE_BYTES ? { ok: false, reason: `${bytes} bytes, more than any record the harness writes (${MAX_ARCHIVE_FILE_BYTES})` } : null;
}

/**
 * A generation record is a few KiB. Reading it into this reused buffer in one call costs open,
 * read and close; a stat before each read (for the size bound) was a quarter of reading a
 * 1,000-generation run. A file that fills the buffer is read again the bounded way.
 */
const SMALL_FILE_BUFFER = Buffer.allocUnsafe(1024 * 1024);

function readTextSync(path: string): TextResult {
  try {
    const fd = openSync(path, "r");
    let length: number;
    try {
      length = readSync(fd, SMALL_FILE_BUFFER, 0, SMALL_FILE_BUFFER.length, 0);
    } finally {
      closeSync(fd);
    }
    if (length < SMALL_FILE_BUFFER.length) return { ok: true, text: SMALL_FILE_BUFFER.toString("utf8", 0, length) };
    const stats = statSync(path);
    // A device such as /dev/zero fills any buffer and reports size 0: never read it whole.
    if (!stats.isFile()) return { ok: false, reason: "not a regular file" };
    const size = tooLarge(stats.size);
    if (size !== null) return size;
    return { ok: true, text: readFileSync(path, "utf8") };
  } catch (error) {
    return textFailure(error);
  }
}

async function readText(path: string): Promise<TextResult> {
  try {
    const stats = await stat(path);
    // A device such as /dev/zero reports size 0 and never ends: never read it.
    if (!stats.isFile()) return { ok: false, reason: "not a regular file" };
    const size = tooLarge(stats.size);
    if (size !== null) return size;
    return { ok: true, text: await readFile(path, "utf8") };
  } catch (error) {
    return textFailure(error);
  }
}

function textFailure(error: unknown): { ok: false; reason: string } {
  const code = (error as NodeJS.ErrnoException).code;
  return { ok: false, reason: code === "ENOENT" ? "missing file" : `unreadable: ${String(error)}` };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Reads run.json, or the problem with it. */
export async function readRunRecord(runDir: string): Promise<{ ok: true; value: RunRecord } | { ok: false; problem: ArchiveProblem }> {
  const path = join(runDir, RUN_FILE);
  const text = await readText(path);
  if (!text.ok) return { ok: false, problem: { path, reason: text.reason } };
  const parsed = parseJsonText(text.text, RunRecord);
  return parsed.ok ? parsed : { ok: false, problem: { path, reason: parsed.reason } };
}

/** Runs under an archive root, newest first; folders that are not readable runs are problems. */
export async function listRuns(root: string): Promise<{ runs: RunListing[]; problems: ArchiveProblem[] }> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { runs: [], problems: [] };
    throw new EvolveError("archive_corrupt", `cannot list ${root}`, { cause: error });
  }
  const dirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith("."));
  const results = await Promise.all(dirs.map(async (e) => {
    const dir = join(root, e.name);
    const record = await readRunRecord(dir);
    if (!record.ok) return record;
    const names = await readdir(dir);
    const generationCount = names.filter((n) => parseGenerationId(n) !== null).length;
    return { ok: true as const, listing: { id: e.name, dir, run: record.value, generationCount } };
  }));
  const runs: RunListing[] = [];
  const problems: ArchiveProblem[] = [];
  for (const r of results) {
    if (r.ok) runs.push(r.listing);
    else problems.push(r.problem);
  }
  runs.sort((a, b) => (a.run.createdAt < b.run.createdAt ? 1 : a.run.createdAt > b.run.createdAt ? -1 : 0));
  return { runs, problems };
}

/** Reads one generation.json, checking it sits in the folder of its own id; a decision on it is joined in. */
export async function readGenerationRecord(
  runDir: string,
  id: string,
): Promise<{ ok: true; value: GenerationRecord } | { ok: false; problem: ArchiveProblem }> {
  const path = generationRecordPath(runDir, id);
  const result = parseGenerationFile(path, id, await readText(path));
  if (!result.ok || result.value.approval === undefined) return result;
  return { ok: true, value: { ...result.value, approval: { ...result.value.approval, decision: readDecision(runDir, id) } } };
}

function parseGenerationFile<G extends RecordLike = GenerationRecord>(
  path: string,
  id: string,
  text: TextResult,
  schema: z.ZodType<G> = GenerationRecord as unknown as z.ZodType<G>,
): { ok: true; value: G } | { ok: false; problem: ArchiveProblem } {
  if (!text.ok) return { ok: false, problem: { path, reason: text.reason } };
  const parsed = parseJsonText(text.text, schema);
  if (!parsed.ok) return { ok: false, problem: { path, reason: parsed.reason } };
  if (parsed.value.id !== id) return { ok: false, problem: { path, reason: `record id ${parsed.value.id} in folder ${id}` } };
  return parsed;
}

/** One generation for commands that name it: unknown or corrupt is an EvolveError. */
export async function readGeneration(runDir: string, id: string): Promise<GenerationRecord> {
  if (!GenerationId.safeParse(id).success || !(await isDirectory(generationPaths(runDir, id).dir))) {
    throw new EvolveError("unknown_generation", `no generation ${id} in ${runDir}`);
  }
  const result = await readGenerationRecord(runDir, id);
  if (!result.ok) throw new EvolveError("archive_corrupt", `${result.problem.path}: ${result.problem.reason}`);
  return result.value;
}

/** A whole run: run.json and every generation.json, problems collected, ids in order. */
export function readRun(runDir: string): Promise<RunContents> {
  return readRunAs(runDir, (path, id) => parseGenerationFile(path, id, readTextSync(path)));
}

/**
 * A run with each generation's summary only (generation-summary.ts): for listings of large
 * runs. A summary comes from the run's index when its record is unchanged since the line was
 * written (summary-index.ts), else from the record itself.
 */
export async function readRunSummary(runDir: string): Promise<RunContents<GenerationSummary>> {
  const indexText = await readText(join(runDir, SUMMARIES_FILE));
  const index = SummaryIndex.fromText(indexText.ok ? indexText.text : null);
  return readRunAs(runDir, (path, id) => {
    const indexed = index.lookup(id, path);
    return indexed === null ? parseGenerationFile(path, id, readTextSync(path), GenerationSummary) : { ok: true, value: indexed };
  });
}

type ReadOne<G> = (path: string, id: string) => { ok: true; value: G } | { ok: false; problem: ArchiveProblem };

async function readRunAs<G extends RecordLike>(runDir: string, readOne: ReadOne<G>): Promise<RunContents<G>> {
  if (!(await isDirectory(runDir))) throw new EvolveError("unknown_run", `no run folder at ${runDir}`);
  const problems: ArchiveProblem[] = [];
  const record = await readRunRecord(runDir);
  if (!record.ok) problems.push(record.problem);
  const entries = await readdir(runDir, { withFileTypes: true });
  const ids = entries
    .filter((e) => !e.name.startsWith(TEMP_PREFIX) && parseGenerationId(e.name) !== null)
    .map((e) => e.name)
    .sort((a, b) => (parseGenerationId(a) ?? 0) - (parseGenerationId(b) ?? 0));
  const results = await mapChunked(ids, (id) => readOne(generationRecordPath(runDir, id), id));
  const records: G[] = [];
  for (const r of results) {
    if (r.ok) records.push(r.value);
    else problems.push(r.problem);
  }
  const decisions = await readDecisions(runDir);
  const joined = joinDecisions(records, decisions.decisions, runDir);
  problems.push(...decisions.problems, ...joined.problems);
  return { dir: runDir, run: record.ok ? record.value : null, generations: joined.generations, problems };
}

/** Parses a JSON-lines file; each bad line is a problem "<path>:<line>". */
async function readJsonLines<T>(path: string, schema: z.ZodType<T>): Promise<{ items: T[]; problems: ArchiveProblem[] }> {
  const text = await readText(path);
  if (!text.ok) return { items: [], problems: [{ path, reason: text.reason }] };
  const items: T[] = [];
  const problems: ArchiveProblem[] = [];
  const lines = text.text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, i) => {
    const parsed = parseJsonText(line, schema);
    if (parsed.ok) items.push(parsed.value);
    else problems.push({ path: `${path}:${i + 1}`, reason: parsed.reason });
  });
  return { items, problems };
}

/** events.jsonl, line by line. */
export async function readEvents(runDir: string): Promise<{ events: ArchiveEvent[]; problems: ArchiveProblem[] }> {
  const { items, problems } = await readJsonLines(join(runDir, EVENTS_FILE), ArchiveEvent);
  return { events: items, problems };
}

/** A generation's transcript.jsonl, line by line. */
export async function readTranscript(runDir: string, id: string): Promise<{ entries: TranscriptLine[]; problems: ArchiveProblem[] }> {
  const { items, problems } = await readJsonLines(generationPaths(runDir, id).transcript, TranscriptLine);
  return { entries: items, problems };
}

/** A generation's solve-transcript.jsonl (the task agent's LLM calls), line by line; none when the file is absent. */
export async function readSolveTranscript(runDir: string, id: string): Promise<{ entries: TranscriptLine[]; problems: ArchiveProblem[] }> {
  const path = generationPaths(runDir, id).solveTranscript;
  if (!(await stat(path).then(() => true, () => false))) return { entries: [], problems: [] };
  const { items, problems } = await readJsonLines(path, TranscriptLine);
  return { entries: items, problems };
}

/** A generation's patch.diff as text. */
export async function readPatch(runDir: string, id: string): Promise<string> {
  const path = generationPaths(runDir, id).patch;
  const text = await readText(path);
  if (!text.ok) throw new EvolveError("archive_corrupt", `${path}: ${text.reason}`);
  return text.text;
}
