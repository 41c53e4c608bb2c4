/**
 * The one writer of a run folder. A generation is built in a temporary folder inside the
 * run folder and renamed into place, so it either fully exists or not at all; run.json is
 * replaced atomically; events are appended one line at a time. Ids are allocated here,
 * monotonically, continuing from what is on disk when a run is reopened.
 */
import { access, appendFile, mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { EvolveError } from "../kernel/index.js";
import { ArchiveEvent, TranscriptLine } from "./archive-event.js";
import { EVENTS_FILE, GENERATION_FILE, generationPaths, RUN_FILE, SUMMARIES_FILE } from "./archive-paths.js";
import { writeRecordFolder, type GenerationFiles } from "./record-folder.js";
import { TEMP_PREFIX, toJsonText, writeFileAtomic, writeFileSynced } from "./atomic-fs.js";
import { GenerationRecord } from "./generation-record.js";
import { formatGenerationId, parseGenerationId } from "./generation-id.js";
import { formatZodError } from "./parse-problem.js";
import { RunRecord } from "./run-record.js";
import { appendSummaryLine } from "./summary-index.js";
import { unwritableArchive } from "./writable-folder.js";

function parseOrThrow<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: unknown } }, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new EvolveError("internal", `refusing to write an invalid ${what}: ${formatZodError(result.error)}`);
}

/** Writes one run folder; not shared between processes (one harness process owns a run). */
export class ArchiveWriter {
  readonly runDir: string;
  #run: RunRecord;
  #next: number;
  readonly #recorded: Set<string>;
  readonly #pending = new Set<string>();
  #appendChain: Promise<void> = Promise.resolve();
  #runChain: Promise<unknown> = Promise.resolve();

  private constructor(runDir: string, run: RunRecord, next: number, recorded: Set<string>) {
    this.runDir = runDir;
    this.#run = run;
    this.#next = next;
    this.#recorded = recorded;
  }

  /** Creates `<root>/<run.id>/` with run.json and an empty events.jsonl; the folder must not exist. */
  static async create(root: string, run: RunRecord): Promise<ArchiveWriter> {
    const record = parseOrThrow(RunRecord, run, "run record");
    const runDir = join(root, record.id);
    try {
      await mkdir(root, { recursive: true });
      await mkdir(runDir);
    } catch (cause) {
      const exists = (cause as NodeJS.ErrnoException).code === "EEXIST" && (await stat(runDir).catch(() => null))?.isDirectory() === true;
      if (!exists) throw unwritableArchive(cause, root, "new-run") ?? cause;
      throw new EvolveError("invalid_options", `run folder ${runDir} already exists`, { cause, hint: "choose another run id, or resume it" });
    }
    await writeFileAtomic(join(runDir, RUN_FILE), toJsonText(record));
    await writeFileSynced(join(runDir, EVENTS_FILE), "");
    return new ArchiveWriter(runDir, record, 0, new Set());
  }

  /** Reopens a run to continue it: sweeps leftover temporaries and resumes id numbering. */
  static async open(runDir: string): Promise<ArchiveWriter> {
    const runPath = join(runDir, RUN_FILE);
    let text: string;
    try {
      text = await readFile(runPath, "utf8");
    } catch (cause) {
      throw new EvolveError("unknown_run", `no run at ${runDir} (cannot read ${RUN_FILE})`, { cause });
    }
    let run: RunRecord;
    try {
      const parsed = RunRecord.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(formatZodError(parsed.error));
      run = parsed.data;
    } catch (cause) {
      throw new EvolveError("archive_corrupt", `${runPath}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    const recorded = new Set<string>();
    let next = 0;
    for (const entry of await readdir(runDir, { withFileTypes: true })) {
      if (entry.name.startsWith(TEMP_PREFIX)) {
        // Left by a process killed mid-write: never renamed into place, so never a record.
        await rm(join(runDir, entry.name), { recursive: true, force: true });
        continue;
      }
      const n = parseGenerationId(entry.name);
      if (n === null || !entry.isDirectory()) continue;
      recorded.add(entry.name);
      next = Math.max(next, n + 1);
    }
    await terminateLastLine(join(runDir, EVENTS_FILE), "create");
    await terminateLastLine(join(runDir, SUMMARIES_FILE), "if-present");
    return new ArchiveWriter(runDir, run, next, recorded);
  }

  /** The run record as last written. */
  get run(): RunRecord {
    return this.#run;
  }

  /** Ids of the generations on disk or recorded through this writer. */
  recordedIds(): string[] {
    return [...this.#recorded];
  }

  /** A fresh generation id, one higher than any allocated or on disk. */
  allocateGenerationId(): string {
    return formatGenerationId(this.#next++);
  }

  /** The number the next allocated generation id will have (an arena round records where its code phase begins). */
  get nextGenerationNumber(): number {
    return this.#next;
  }

  /** Writes one generation atomically; its id must be new to this run. */
  async recordGeneration(record: GenerationRecord, files: GenerationFiles): Promise<void> {
    const parsed = parseOrThrow(GenerationRecord, record, "generation record");
    const transcript = files.transcript.map((e, i) => parseOrThrow(TranscriptLine, e, `transcript entry ${i}`));
    const solveTranscript = (files.solveTranscript ?? []).map((e, i) => parseOrThrow(TranscriptLine, e, `solve transcript entry ${i}`));
    if ((files.snapshotDir === null) !== (parsed.snapshotHash === null)) {
      throw new EvolveError("internal", `${parsed.id}: a snapshot and a snapshot hash go together`);
    }
    const id = parsed.id;
    const paths = generationPaths(this.runDir, id);
    if (this.#recorded.has(id) || this.#pending.has(id) || (await exists(paths.dir))) {
      throw new EvolveError("internal", `generation ${id} is already recorded in ${this.runDir}`);
    }
    this.#pending.add(id);
    try {
      await writeRecordFolder({ dir: paths.dir, id, recordFile: GENERATION_FILE, recordText: toJsonText(parsed), snapshotHash: parsed.snapshotHash }, { ...files, transcript, solveTranscript });
    } finally {
      this.#pending.delete(id);
    }
    this.#recorded.add(id);
    const n = parseGenerationId(id) ?? 0;
    this.#next = Math.max(this.#next, n + 1);
    // The index is a cache of records already on disk: a line that fails to land only makes
    // readers read that record (summary-index.ts), so it never fails the generation.
    await this.#serialised(() => appendSummaryLine(this.runDir, parsed)).catch(() => undefined);
  }

  /** Rewrites run.json atomically with `change` applied (updatedAt is set here). */
  async updateRun(change: (run: RunRecord) => RunRecord): Promise<RunRecord> {
    const next = this.#runChain.then(async () => {
      const updated = parseOrThrow(RunRecord, { ...change(this.#run), updatedAt: new Date().toISOString() }, "run record");
      await writeFileAtomic(join(this.runDir, RUN_FILE), toJsonText(updated));
      this.#run = updated;
      return updated;
    });
    this.#runChain = next.catch(() => undefined);
    return next;
  }

  /** Appends one event line; appends are serialised so lines never interleave. */
  async appendEvent(event: ArchiveEvent): Promise<void> {
    const line = eventLine(event);
    return this.#serialised(() => appendFile(join(this.runDir, EVENTS_FILE), line));
  }

  /** Runs appends one after another, so lines never interleave. */
  #serialised(append: () => Promise<void>): Promise<void> {
    const next = this.#appendChain.then(append);
    this.#appendChain = next.catch(() => undefined);
    return next;
  }
}

function eventLine(event: ArchiveEvent): string {
  return `${JSON.stringify(parseOrThrow(ArchiveEvent, event, "event"))}\n`;
}

/**
 * Appends one event from a process that does not own the run (`evolve approve` while the run
 * is live). The file is opened O_APPEND and the line goes in one write of a few hundred
 * bytes, so it lands whole after whatever the owner appended, never inside one of its lines.
 */
export async function appendRunEvent(runDir: string, event: ArchiveEvent): Promise<void> {
  await appendFile(join(runDir, EVENTS_FILE), eventLine(event));
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A kill mid-append can leave a partial last line; end it so it stays one bad line (reported
 * in events.jsonl, skipped in the summary index) instead of spoiling the next one appended.
 */
async function terminateLastLine(path: string, missing: "create" | "if-present"): Promise<void> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    if (missing === "create") await writeFileSynced(path, "");
    return;
  }
  if (size === 0) return;
  const text = await readFile(path, "utf8");
  if (!text.endsWith("\n")) await appendFile(path, "\n");
}
