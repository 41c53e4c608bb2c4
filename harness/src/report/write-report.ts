/** `evolve report` and the end of every run: the run's report.html, written atomically. */
import { join } from "node:path";
import { readPatch, readRun, writeFileAtomic } from "../archive/index.js";
import { buildReportData } from "./report-data.js";
import { pageScript } from "./page-script.js";
import { renderReportHtml } from "./render-html.js";
import { readArena } from "../arena/index.js";
import { arenaRounds, arenaSection } from "./arena-view.js";

/** The report's file name inside the run folder. */
export const REPORT_FILE = "report.html";

const PATCH_CHUNK = 64;

/** Writes `<runDir>/report.html` from the archive and returns its path; unreadable records are listed in the page. */
export async function writeReport(runDir: string, now: Date = new Date()): Promise<string> {
  const contents = await readRun(runDir);
  const patches = new Map<string, string | null>();
  const ids = contents.generations.map((g) => g.id);
  for (let i = 0; i < ids.length; i += PATCH_CHUNK) {
    const chunk = ids.slice(i, i + PATCH_CHUNK);
    const texts = await Promise.all(chunk.map((id) => readPatch(runDir, id).catch(() => null)));
    chunk.forEach((id, k) => patches.set(id, texts[k] ?? null));
  }
  const { data, diffs } = buildReportData(contents, patches, now);
  const path = join(runDir, REPORT_FILE);
  const arena = await readArena(runDir);
  await writeFileAtomic(path, renderReportHtml(data, diffs, await pageScript(), arenaSection(arenaRounds(arena.rounds, arena.testers))));
  return path;
}
