/**
 * summaries.jsonl: each generation's summary (generation-summary.ts) as one line, appended by
 * the writer once the record is in place, with the size and modification time its
 * generation.json had then. `evolve ls` and `show` read this one file instead of every record
 * of a large run. It is a cache, never the truth: a line is used only while its record still
 * has that size and time (a record rewritten or corrupted since is read whole, and reported
 * as before); a record with no line, a bad line or no file at all is read from the record.
 * So a run from before the index, a kill between the rename and the append, or a copied
 * archive (new times) costs speed, never a wrong answer.
 */
import { appendFile, stat } from "node:fs/promises";
import { statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { generationRecordPath, SUMMARIES_FILE } from "./archive-paths.js";
import type { GenerationRecord } from "./generation-record.js";
import { GenerationSummary } from "./generation-summary.js";
import { parseJsonText } from "./parse-problem.js";

/** What a line says of its record file when it was written. */
const RecordStamp = z.object({ bytes: z.number().int().nonnegative(), mtimeMs: z.number().nonnegative() });
type RecordStamp = z.infer<typeof RecordStamp>;

const SummaryLine = GenerationSummary.extend({ record: RecordStamp });

/** Appends `record`'s line; the record must already be in its folder (its stamp is read from disk). */
export async function appendSummaryLine(runDir: string, record: GenerationRecord): Promise<void> {
  const stats = await stat(generationRecordPath(runDir, record.id));
  const line = { ...GenerationSummary.parse(record), record: { bytes: stats.size, mtimeMs: stats.mtimeMs } };
  await appendFile(join(runDir, SUMMARIES_FILE), `${JSON.stringify(line)}\n`);
}

/** The summaries a run's index holds, each usable only while its record keeps its stamp. */
export class SummaryIndex {
  readonly #lines: Map<string, { summary: GenerationSummary; record: RecordStamp }>;

  private constructor(lines: Map<string, { summary: GenerationSummary; record: RecordStamp }>) {
    this.#lines = lines;
  }

  /** Parses the index text (null: no index); a line that does not parse is left out. */
  static fromText(text: string | null): SummaryIndex {
    const lines = new Map<string, { summary: GenerationSummary; record: RecordStamp }>();
    for (const line of text?.split("\n") ?? []) {
      if (line === "") continue;
      const parsed = parseJsonText(line, SummaryLine);
      if (!parsed.ok) continue;
      const { record, ...summary } = parsed.value;
      lines.set(summary.id, { summary, record });
    }
    return new SummaryIndex(lines);
  }

  /** The summary of `id` if its record at `path` still has the stamp the line recorded; else null. */
  lookup(id: string, path: string): GenerationSummary | null {
    const line = this.#lines.get(id);
    if (line === undefined) return null;
    let stats;
    try {
      stats = statSync(path);
    } catch {
      return null;
    }
    return stats.isFile() && stats.size === line.record.bytes && stats.mtimeMs === line.record.mtimeMs ? line.summary : null;
  }
}
