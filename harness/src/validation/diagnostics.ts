/** Turn compiler diagnostics into a ValidationFailure with file, line and the compiler's words. */
import { relative } from "node:path";
import { ts } from "ts-morph";
import { type CodeOf, failure, type FailureAt } from "../results/index.js";

/** How many diagnostics a failure message quotes. */
const QUOTED = 3;

/** Diagnostic codes meaning "this module cannot be found or has no types". */
const UNRESOLVED = new Set([2307, 2792, 2834, 2835, 7016]);
/** Diagnostic codes meaning "that module has no such export". */
const MISSING_EXPORT = new Set([2305, 2614, 2724]);

interface Located {
  file: string | null;
  line: number | null;
  text: string;
}

function locate(diagnostic: ts.Diagnostic, treeDir: string): Located {
  const words = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  const source = diagnostic.file;
  if (source === undefined || diagnostic.start === undefined) {
    return { file: null, line: null, text: `error TS${diagnostic.code}: ${words}` };
  }
  const file = relative(treeDir, source.fileName);
  const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start);
  return { file, line: line + 1, text: `${file}:${line + 1}:${character + 1} - error TS${diagnostic.code}: ${words}` };
}

/** A failure quoting the first few diagnostics; the first one gives the file and line. */
export function diagnosticsFailure<S extends "compile" | "signature">(
  stage: S,
  code: CodeOf<S>,
  diagnostics: readonly ts.Diagnostic[],
  treeDir: string,
): FailureAt<S> {
  const located = diagnostics.slice(0, QUOTED).map((d) => locate(d, treeDir));
  const more = diagnostics.length > QUOTED ? `\n(and ${diagnostics.length - QUOTED} more)` : "";
  const first = located[0];
  return failure(stage, code, located.map((l) => l.text).join("\n") + more, { file: first?.file ?? null, line: first?.line ?? null });
}

/** "unresolved_import" when the first diagnostic is a missing module, else "type_error". */
export function semanticCode(diagnostics: readonly ts.Diagnostic[]): CodeOf<"compile"> {
  const first = diagnostics[0];
  return first !== undefined && UNRESOLVED.has(first.code) ? "unresolved_import" : "type_error";
}

/** "missing_export" when an entry module lacks the export, else "signature_mismatch". */
export function signatureCode(diagnostics: readonly ts.Diagnostic[]): CodeOf<"signature"> {
  const first = diagnostics[0];
  return first !== undefined && MISSING_EXPORT.has(first.code) ? "missing_export" : "signature_mismatch";
}

/** Only errors count: suggestions and messages never fail a gate. */
export function errorsOnly(diagnostics: readonly ts.Diagnostic[]): ts.Diagnostic[] {
  return diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
}
