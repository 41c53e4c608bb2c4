/** Reading a named run for an inspect command: corrupt records become warnings on stderr. */
import type { ArchiveProblem, RunContents } from "../../archive/index.js";
import { basename, dirname } from "node:path";
import { checkLineage, parseGenerationId, readRun } from "../../archive/index.js";
import { resolveRunArg } from "./run-arg.js";

/** A run and everything wrong with it (unreadable records, lineage inconsistencies). */
export interface LoadedRun extends RunContents {
  readonly warnings: ArchiveProblem[];
}

/** Reads `<run>`; every problem is printed as one warning line and kept for --json. */
export async function loadRun(arg: string, out: string | undefined, err: (line: string) => void): Promise<LoadedRun> {
  const dir = await resolveRunArg(arg, out);
  const contents = await readRun(dir);
  const warnings = [...contents.problems, ...lineageProblems(contents)];
  for (const w of warnings) err(`warning: ${w.path}: ${w.reason}`);
  return { ...contents, warnings };
}

// A skipped (corrupt) record already is a problem; its children then name a missing parent,
// which is the same fault, so only problems not explained by an unreadable record are added.
function lineageProblems(contents: RunContents): ArchiveProblem[] {
  const unreadableRecord = (path: string): boolean => basename(path) === "generation.json" && parseGenerationId(basename(dirname(path))) !== null;
  if (contents.problems.some((p) => unreadableRecord(p.path))) return [];
  return checkLineage(contents.generations, `${contents.dir}/`);
}

/** A string option value, or undefined. */
export function stringOption(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Prints a value as indented JSON, one line per out() call-site (the CLI joins nothing). */
export function printJson(out: (line: string) => void, value: unknown): void {
  out(JSON.stringify(value, null, 2));
}
