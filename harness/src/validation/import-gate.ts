/**
 * Gate 3, import: the emitted JS loads in a fresh hardened container (the sandbox's
 * `checkImports`) within a timeout, and `solve` and `improve` are functions (and `propose`,
 * when the build has a tester or one is required). The host never loads the emitted JS itself.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type CodeOf, failure, type ValidationFailure } from "../results/index.js";
import { type ImportCheck, type RuntimeImage, type SandboxEngine, type SandboxLabels, checkImports, TESTER_ENTRY } from "../../../sandbox/src/index.js";
import { type Runtime, assertNever } from "../kernel/index.js";
import { TESTER_FILE } from "./tester-entry.js";

/** Where and how long the import check runs. */
export interface ImportGateOptions {
  engine: SandboxEngine;
  image: RuntimeImage;
  labels: SandboxLabels;
  runtime?: Runtime;
  timeoutMs: number;
  /** `propose` must be there even when the build has no tester/index.js. */
  requireTester?: boolean;
}

/** Exports the runner must report as functions, with the entry file each comes from. */
const REQUIRED_EXPORTS: readonly { name: string; file: string }[] = [
  { name: "solve", file: "task/index.ts" },
  { name: "improve", file: "meta/index.ts" },
];
const TESTER_EXPORT = { name: "propose", file: TESTER_FILE };

/** Characters of container stderr quoted in a failure. */
const STDERR_EXCERPT = 1_500;

function fail(code: CodeOf<"import">, message: string, stderr: string, file: string | null = null): ValidationFailure {
  const excerpt = stderr.trim().slice(-STDERR_EXCERPT);
  return failure("import", code, excerpt === "" ? message : `${message}\nstderr:\n${excerpt}`, { file });
}

/** Gate 3 over `buildDir`: null when it passes, else the failure. */
export async function checkImportGate(buildDir: string, options: ImportGateOptions): Promise<ValidationFailure | null> {
  const check: ImportCheck = await checkImports({
    engine: options.engine,
    image: options.image,
    labels: { ...options.labels, phase: options.labels.phase ?? "validate" },
    buildDir,
    timeoutMs: options.timeoutMs,
    ...(options.runtime === undefined ? {} : { runtime: options.runtime }),
  });
  return importFailure(check, buildDir, options);
}

/** Whether the exports a load reported are the contract's functions: null when they are, else the failure's code, message and file. */
export function exportProblem(exports: Record<string, string>, buildDir: string, requireTester = false): { code: "missing_export" | "not_a_function"; message: string; file: string } | null {
  // The build is the harness's own emit of a checked tree: its tester/index.js exists exactly when tester/index.ts did.
  const tester = requireTester || existsSync(join(buildDir, TESTER_ENTRY));
  for (const { name, file } of tester ? [...REQUIRED_EXPORTS, TESTER_EXPORT] : REQUIRED_EXPORTS) {
    const kind = exports[name];
    if (kind === undefined) return { code: "missing_export", message: `${file}: the loaded module has no export \`${name}\``, file };
    if (kind !== "function") return { code: "not_a_function", message: `${file}: \`${name}\` is a ${kind} at run time, not a function`, file };
  }
  return null;
}

/**
 * The gate's verdict on a load of `buildDir`, wherever it ran: in the import check's own
 * container, or in the first evaluation session's (opened with `check`). Null when it passes.
 */
export function importFailure(check: ImportCheck, buildDir: string, options: Pick<ImportGateOptions, "timeoutMs" | "requireTester">): ValidationFailure | null {
  const stderr = check.outcome.stderr;
  if (check.ok) {
    const problem = exportProblem(check.exports, buildDir, options.requireTester === true);
    return problem === null ? null : fail(problem.code, problem.message, stderr, problem.file);
  }
  switch (check.kind) {
    case "load_error":
      return fail("load_error", `loading the agent threw: ${check.reason}`, stderr);
    case "timeout":
      return fail("load_timeout", `loading the agent did not finish within ${options.timeoutMs} ms`, stderr);
    case "oom":
    case "output_too_large":
    case "crash":
      return fail("load_exit", `loading the agent ended the process: ${check.reason}`, stderr);
    case "protocol":
      return fail("protocol_violation", `the container broke the runner protocol: ${check.reason}`, stderr);
    default:
      return assertNever(check.kind, "import check end");
  }
}
