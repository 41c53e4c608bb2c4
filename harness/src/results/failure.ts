/**
 * Every way a candidate can fail, by the step that found it. This is the one list: the
 * gates produce these codes, the archive record is read back through it (a code that is
 * not here, or not of its stage, is a corrupt record), and the CLI, the report and the
 * tests read the same names. A failure of the harness itself is never one of these: it is
 * an `EvolveError` (harness/src/kernel/errors.ts).
 */
import { z } from "zod";

export const FAILURE_CODES = {
  /** The meta agent ran out of time or memory, threw, or returned no report. */
  self_modify: ["timeout", "oom", "improve_failed", "bad_report"],
  /** Its workspace could not be taken out, read back or found. */
  extract: ["extraction_refused", "unreadable_tree", "no_tree"],
  policy: [
    "link",
    "special_file",
    "path_outside_tree",
    "too_deep",
    "too_many_files",
    "file_too_large",
    "tree_too_large",
    "forbidden_file",
    "install_hook",
    "missing_required_file",
    "protected_path",
    "empty_diff",
  ],
  compile: [
    "syntax_error",
    "forbidden_import",
    "contract_redefined",
    "unresolved_import",
    "type_error",
    // The bounded check worker's limits, and the crash-loop guard of the evolution loop.
    "compile_memory",
    "compile_timeout",
    "compile_crash",
    "harness_died_checking",
  ],
  signature: ["missing_export", "signature_mismatch"],
  import: ["load_error", "load_timeout", "load_exit", "protocol_violation", "missing_export", "not_a_function"],
} as const;

/** The four gates of validation, in the order they run. */
export const ValidationStage = z.enum(["policy", "compile", "signature", "import"]);
export type ValidationStage = z.infer<typeof ValidationStage>;

/** Where a candidate stopped: the two steps before validation, then the gates. */
export const FailureStage = z.enum(["self_modify", "extract", ...ValidationStage.options]);
export type FailureStage = z.infer<typeof FailureStage>;

/** The codes one stage may report. */
export type CodeOf<S extends FailureStage> = (typeof FAILURE_CODES)[S][number];

export const FailureCode = z.enum([...new Set(Object.values(FAILURE_CODES).flat())] as [CodeOf<FailureStage>, ...CodeOf<FailureStage>[]]);
export type FailureCode = z.infer<typeof FailureCode>;

function failureAt<S extends FailureStage>(stage: S) {
  return z.object({
    stage: z.literal(stage),
    code: z.enum(FAILURE_CODES[stage]),
    /** Human words: the file, line and the compiler's message where there are any. */
    message: z.string(),
    file: z.string().nullable(),
    line: z.number().int().nullable(),
  });
}

const AT = {
  self_modify: failureAt("self_modify"),
  extract: failureAt("extract"),
  policy: failureAt("policy"),
  compile: failureAt("compile"),
  signature: failureAt("signature"),
  import: failureAt("import"),
};

/** A candidate's failure: a value, with a code of its stage. */
export const Failure = z.discriminatedUnion("stage", [AT.self_modify, AT.extract, AT.policy, AT.compile, AT.signature, AT.import]);
export type Failure = z.infer<typeof Failure>;

/** A failure found by one of the validation gates. */
export const ValidationFailure = z.discriminatedUnion("stage", [AT.policy, AT.compile, AT.signature, AT.import]);
export type ValidationFailure = z.infer<typeof ValidationFailure>;

/** The failure of one stage, narrowed to it. */
export type FailureAt<S extends FailureStage> = Extract<Failure, { stage: S }>;

/** A generation's status when it failed: the failure, marked invalid (read back from generation.json). */
export const InvalidStatus = z.discriminatedUnion("stage", [
  AT.self_modify.extend({ kind: z.literal("invalid") }),
  AT.extract.extend({ kind: z.literal("invalid") }),
  AT.policy.extend({ kind: z.literal("invalid") }),
  AT.compile.extend({ kind: z.literal("invalid") }),
  AT.signature.extend({ kind: z.literal("invalid") }),
  AT.import.extend({ kind: z.literal("invalid") }),
]);

/** Builds a failure, with `file` and `line` when the stage can point at one. */
export function failure<S extends FailureStage>(
  stage: S,
  code: CodeOf<S>,
  message: string,
  where: { file?: string | null; line?: number | null } = {},
): FailureAt<S> {
  return { stage, code, message, file: where.file ?? null, line: where.line ?? null } as FailureAt<S>;
}

/** A failure in a few words, as every view prints it: "compile: syntax_error". */
export function failureLabel(failure: { stage: FailureStage; code: FailureCode }): string {
  return `${failure.stage}: ${failure.code}`;
}
