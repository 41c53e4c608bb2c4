/**
 * Type-checks a candidate's answer and emits its JavaScript, inside the code-test container:
 * the compiler runs on hostile source only where the container's memory, CPU and wall clock
 * bound it, never on the host. The answer is one self-contained module checked with strict
 * options against the ES2022 library and a console (no Node types: `process`, `require`
 * and `node:fs` do not type-check), and its exports against the task's declared types.
 */
import type TypeScript from "typescript";
import { COMPILE_ERROR_CHARS, MAX_COMPILE_ERRORS, type ExecExport } from "./exec-protocol.js";

type Ts = typeof TypeScript;

const DIR = "/exec/";
const SOLUTION = `${DIR}solution.ts`;
const CHECK = `${DIR}exports-check.ts`;
const AMBIENT = `${DIR}ambient.d.ts`;

/**
 * What a solution's thread has besides the language: console (its output is counted and
 * capped) and timers. Nothing of Node's: a solution is plain computation.
 */
const AMBIENT_SOURCE = `declare const console: { log(...data: unknown[]): void; error(...data: unknown[]): void; warn(...data: unknown[]): void; info(...data: unknown[]): void; debug(...data: unknown[]): void };
declare function setTimeout(callback: (...args: unknown[]) => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function queueMicrotask(callback: () => void): void;
declare function structuredClone<T>(value: T): T;
`;

export type Compiled = { ok: true; js: string } | { ok: false; errors: string[] };

/** The trusted module that pins each export to its declared type. */
export function exportsCheckSource(declarations: string, exports: readonly ExecExport[]): string {
  const names = exports.map((e) => e.name);
  const lines = [declarations, `import { ${names.join(", ")} } from "./solution.js";`];
  for (const e of exports) lines.push(`export const __evolve_export_${e.name}: ${e.type} = ${e.name};`);
  return `${lines.join("\n")}\n`;
}

function options(ts: Ts): TypeScript.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts"],
    types: [],
    strict: true,
    skipLibCheck: true,
    noEmitOnError: true,
    allowJs: false,
    declaration: false,
    sourceMap: false,
    newLine: ts.NewLineKind.LineFeed,
  };
}

function describe(ts: Ts, d: TypeScript.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(d.messageText, " ");
  let where = "";
  if (d.file !== undefined && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    const name = d.file.fileName === SOLUTION ? "solution.ts" : "(the declared exports)";
    where = `${name}(${line + 1},${character + 1}): `;
  }
  const message = `${where}error TS${d.code}: ${text}`;
  return message.length > COMPILE_ERROR_CHARS ? `${message.slice(0, COMPILE_ERROR_CHARS - 1)}…` : message;
}

/** Checks `source` against the declared exports; the emitted JS when there is no error. */
export function compileSolution(ts: Ts, source: string, declarations: string, exports: readonly ExecExport[]): Compiled {
  const opts = options(ts);
  const files = new Map([
    [SOLUTION, source],
    [CHECK, exportsCheckSource(declarations, exports)],
    [AMBIENT, AMBIENT_SOURCE],
  ]);
  const host = ts.createCompilerHost(opts);
  const libSource = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError) => {
    const text = files.get(name);
    return text === undefined ? libSource(name, version, onError) : ts.createSourceFile(name, text, version, true);
  };
  // Only the two modules and the compiler's lib files exist: any other import (a package,
  // `node:fs`, a sibling file) does not resolve.
  const libDir = ts.getDefaultLibFilePath(opts).replace(/[^/]*$/, "");
  host.fileExists = (name) => files.has(name) || (name.startsWith(libDir) && ts.sys.fileExists(name));
  host.readFile = (name) => files.get(name) ?? (name.startsWith(libDir) ? ts.sys.readFile(name) : undefined);
  host.directoryExists = (name) => `${name}/`.startsWith(DIR) || DIR.startsWith(`${name}/`) || name.startsWith(libDir.slice(0, -1));
  host.getCurrentDirectory = () => DIR;
  host.writeFile = () => undefined;
  const program = ts.createProgram([SOLUTION, CHECK, AMBIENT], opts, host);
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics()].filter(
    (d) => d.category === ts.DiagnosticCategory.Error,
  );
  if (diagnostics.length > 0) {
    const shown = diagnostics.slice(0, MAX_COMPILE_ERRORS).map((d) => describe(ts, d));
    if (diagnostics.length > MAX_COMPILE_ERRORS) shown.push(`… and ${diagnostics.length - MAX_COMPILE_ERRORS} more`);
    return { ok: false, errors: shown };
  }
  let js: string | null = null;
  const emitted = program.emit(program.getSourceFile(SOLUTION), (name, text) => {
    if (name.endsWith(".js")) js = text;
  });
  if (emitted.emitSkipped || js === null) return { ok: false, errors: ["the compiler emitted no JavaScript for solution.ts"] };
  return { ok: true, js };
}
