/**
 * The arena's part of a run folder: rounds/rNNNN.json (rewritten atomically when a phase
 * ends) and testers/tNNNN/ (written once, staged in a temporary folder and renamed in, like
 * a generation). Reading skips what does not parse and says why; it never throws for it.
 */
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  generationPaths,
  parseJsonText,
  TEMP_PREFIX,
  toJsonText,
  TranscriptLine,
  writeFileAtomic,
  writeRecordFolder,
  type ArchiveProblem,
  type GenerationFiles,
} from "../archive/index.js";
import { EvolveError } from "../kernel/index.js";
import { RoundRecord, TesterRecord } from "./arena-record.js";

export const ARENA_DIR = "arena";
/** No arena record comes near this; a larger file is corrupt and is not read. */
const MAX_RECORD_BYTES = 32 * 1024 * 1024;
/** A test generation's record file (a code generation's is generation.json). */
const TESTER_FILE_NAME = "tester.json";

export function arenaPaths(runDir: string) {
  const dir = join(runDir, ARENA_DIR);
  return {
    dir,
    rounds: join(dir, "rounds"),
    round: (n: number) => join(dir, "rounds", `r${String(n).padStart(4, "0")}.json`),
    testers: join(dir, "testers"),
    tester: (id: string) => {
      // Laid out like a generation's folder, with its own record file.
      const files = generationPaths(join(dir, "testers"), id);
      return { ...files, record: join(files.dir, TESTER_FILE_NAME) };
    },
  };
}

/** Writes (or rewrites) one round's record. */
export async function writeRound(runDir: string, record: RoundRecord): Promise<void> {
  const parsed = RoundRecord.parse(record);
  const paths = arenaPaths(runDir);
  await mkdir(paths.rounds, { recursive: true });
  await writeFileAtomic(paths.round(parsed.round), toJsonText(parsed));
}

/** Records one test generation with its files, all or nothing (staged and renamed in, like a generation). */
export async function recordTester(runDir: string, record: TesterRecord, files: GenerationFiles): Promise<void> {
  const parsed = TesterRecord.parse(record);
  const transcript = files.transcript.map((e) => TranscriptLine.parse(e));
  const paths = arenaPaths(runDir);
  const target = paths.tester(parsed.id);
  await mkdir(paths.testers, { recursive: true });
  if (await stat(target.dir).then(() => true, () => false)) throw new EvolveError("internal", `test generation ${parsed.id} is already recorded`);
  await writeRecordFolder({ dir: target.dir, id: parsed.id, recordFile: TESTER_FILE_NAME, recordText: toJsonText(parsed), snapshotHash: parsed.snapshotHash }, { ...files, transcript });
}

export interface ArenaContents {
  rounds: RoundRecord[];
  testers: TesterRecord[];
  problems: ArchiveProblem[];
}

async function readRecord<T>(path: string, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: unknown } }): Promise<{ ok: true; value: T } | { ok: false; problem: ArchiveProblem }> {
  try {
    const size = (await stat(path)).size;
    if (size > MAX_RECORD_BYTES) return { ok: false, problem: { path, reason: `${size} bytes, more than any arena record (${MAX_RECORD_BYTES})` } };
    const parsed = parseJsonText(await readFile(path, "utf8"), schema as never);
    return parsed.ok ? { ok: true, value: parsed.value as T } : { ok: false, problem: { path, reason: parsed.reason } };
  } catch (error) {
    return { ok: false, problem: { path, reason: (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing file" : String(error) } };
  }
}

async function entries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => !name.startsWith(TEMP_PREFIX)).sort();
  } catch {
    return [];
  }
}

/** Every readable round and test generation of a run, in order; the rest as problems. An ordinary run has none. */
export async function readArena(runDir: string): Promise<ArenaContents> {
  const paths = arenaPaths(runDir);
  const contents: ArenaContents = { rounds: [], testers: [], problems: [] };
  for (const name of await entries(paths.rounds)) {
    if (!/^r\d{4,}\.json$/.test(name)) continue;
    const read = await readRecord(join(paths.rounds, name), RoundRecord);
    if (read.ok) contents.rounds.push(read.value);
    else contents.problems.push(read.problem);
  }
  for (const name of await entries(paths.testers)) {
    if (!/^t\d{4,}$/.test(name)) continue;
    const read = await readRecord(paths.tester(name).record, TesterRecord);
    if (read.ok && read.value.id === name) contents.testers.push(read.value);
    else contents.problems.push(read.ok ? { path: paths.tester(name).record, reason: `records ${read.value.id}, not ${name}` } : read.problem);
  }
  contents.rounds.sort((a, b) => a.round - b.round);
  return contents;
}

/** Sweeps temporaries a killed process left in the arena folders. */
export async function sweepArenaTemporaries(runDir: string): Promise<void> {
  const paths = arenaPaths(runDir);
  for (const dir of [paths.rounds, paths.testers]) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) if (name.startsWith(TEMP_PREFIX)) await rm(join(dir, name), { recursive: true, force: true });
  }
}
