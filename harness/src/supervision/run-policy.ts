/**
 * A run policy (`evolve run --policy FILE`): what no child may change, and which changes
 * wait for a person. It is copied into run.json, so a resumed or replayed run obeys the
 * policy it started with. Every key is optional; an unknown (say, misspelt) key is an error
 * naming it: a rule that silently does nothing is the worst outcome for a safety setting.
 */
import { z } from "zod";
import { EvolveError, assertNever, parseJson, readJson, type JsonRead } from "../kernel/index.js";
import { GlobPattern } from "./glob.js";

const Patterns = z.array(GlobPattern).max(100);

/** When a valid child needs a person's approval before it may be a parent. */
export const ApprovalRules = z.strictObject({
  /** It changes (adds, modifies or deletes) a path matching one of these globs. */
  paths: Patterns.optional(),
  /** Its diff has more than this many changed lines (added + deleted, over all files). */
  maxChangedLines: z.number().int().nonnegative().optional(),
  /** It adds or deletes a file. */
  addOrDeleteFiles: z.boolean().optional(),
  /** Unanswered this long after it was recorded, it is rejected; absent: it waits indefinitely. */
  timeoutMinutes: z.number().positive().max(1e6).optional(),
});
export type ApprovalRules = z.infer<typeof ApprovalRules>;

export const RunPolicy = z.strictObject({
  /** Globs no child may change: the policy gate refuses such a tree, naming the path. */
  protectedPaths: Patterns.optional(),
  approval: ApprovalRules.optional(),
});
export type RunPolicy = z.infer<typeof RunPolicy>;

const KEYS_HINT =
  'the keys are protectedPaths (globs) and approval: { paths (globs), maxChangedLines, addOrDeleteFiles, timeoutMinutes }, e.g. { "protectedPaths": ["meta/prompts.ts"], "approval": { "paths": ["meta/**"] } }';

/** Parses a policy file's text; a problem is an `invalid_options` error naming the key. */
export function parseRunPolicy(text: string, source: string): RunPolicy {
  return policyOf(parseJson(RunPolicy, text), source);
}

/** Reads and parses a policy file. */
export async function readRunPolicy(path: string): Promise<RunPolicy> {
  return policyOf(await readJson(RunPolicy, path), path);
}

function policyOf(read: JsonRead<RunPolicy>, source: string): RunPolicy {
  if (read.ok) return read.value;
  switch (read.problem) {
    case "missing":
    case "unreadable":
      throw new EvolveError("invalid_options", `cannot read the policy file ${source}: ${read.reason}`, { hint: "--policy takes a JSON file" });
    case "empty":
    case "not_json":
      throw new EvolveError("invalid_options", `policy ${source} is not JSON: ${read.reason}`, { hint: KEYS_HINT });
    case "schema":
      throw new EvolveError("invalid_options", `policy ${source}: ${read.reason}`, { hint: KEYS_HINT });
    default:
      return assertNever(read.problem, "policy problem");
  }
}

/** Whether the policy asks for any approval at all (a run without it never has pending children). */
export function hasApprovalRules(policy: RunPolicy | null | undefined): boolean {
  const rules = policy?.approval;
  if (rules === undefined) return false;
  return (rules.paths?.length ?? 0) > 0 || rules.maxChangedLines !== undefined || rules.addOrDeleteFiles === true;
}
