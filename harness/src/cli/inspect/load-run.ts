/** Reading a named run for an inspect command: corrupt records become warnings on stderr. */
import type { ArchiveProblem, GenerationRecord, GenerationSummary, RunContents } from "../../archive/index.js";
import { basename, dirname } from "node:path";
import { checkLineage, parseGenerationId, readRun, readRunSummary } from "../../archive/index.js";
import { resolveRunArg } from "./run-arg.js";

/** A run and everything wrong with it (unreadable records, lineage inconsistencies). */
export interface LoadedRun<G extends GenerationRecord | GenerationSummary = GenerationRecord> extends RunContents<G> {
  readonly warnings: ArchiveProblem[];
}

/** Reads `<run>`; every problem is printed as one warning line and kept for --json. */
export async function loadRun(arg: string, out: string | undefined, err: (line: string) => void): Promise<LoadedRun> {
  return warned(await readRun(await resolveRunArg(arg, out)), err);
}

/** Reads `<run>` with each record's summary only (archive/generation-summary.ts), for a command that shows one generation of a large run. */
export async function loadRunSummary(arg: string, out: string | undefined, err: (line: string) => void): Promise<LoadedRun<GenerationSummary>> {
  return warned(await readRunSummary(await resolveRunArg(arg, out)), err);
}

function warned<G extends GenerationRecord | GenerationSummary>(contents: RunContents<G>, err: (line: string) => void): LoadedRun<G> {
  const warnings = [...contents.problems, ...lineageProblems(contents)];
  for (const w of warnings) err(`warning: ${w.path}: ${w.reason}`);
  return { ...contents, warnings };
}

// A skipped (corrupt) record already is a problem; its children then name a missing parent,
// which is the same fault, so only problems not explained by an unreadable record are added.
function lineageProblems(contents: RunContents<GenerationRecord | GenerationSummary>): ArchiveProblem[] {
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
