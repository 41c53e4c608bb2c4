/**
 * Syntax checks of edited files: a file left unparsable would fail the compile gate for the
 * whole generation, so both LLM strategies check what they touch (no type information needed,
 * so it is cheap) and undo what does not parse. The parser is the image's TypeScript itself,
 * not ts-morph's copy of it: a parse needs no project, and ts-morph's two other modules cost
 * about 0.1 s more CPU to load in every self-modification container. TypeScript alone still
 * takes ~0.13 CPU-s (from the image's code cache), so it loads on first use, or earlier
 * through `preloadParser` while the agent waits for the model.
 */
import type Ts from "typescript";

let parser: Promise<typeof Ts> | null = null;

/** Starts loading the parser without waiting for it. */
export function preloadParser(): void {
  parser ??= import("typescript").then((m) => m.default);
}

/**
 * Syntax errors of a TypeScript text, as "path:line: message": the parse diagnostics of a
 * one-file program with no library and no imports followed. That is what `transpileModule`
 * reports too, without its emit: a third of the CPU on a first check in the container.
 */
export async function syntaxErrors(path: string, text: string): Promise<string[]> {
  preloadParser();
  const ts = await (parser as Promise<typeof Ts>);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022);
  const host: Ts.CompilerHost = {
    getSourceFile: (name) => (name === path ? source : undefined),
    getDefaultLibFileName: () => "lib.d.ts",
    writeFile: () => undefined,
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => name === path,
    readFile: () => undefined,
  };
  const program = ts.createProgram({ rootNames: [path], options: { noLib: true, noResolve: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext }, host });
  return program.getSyntacticDiagnostics(source).map((d) => {
    const line = d.start !== undefined ? source.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${path}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

/** Whitespace runs as one space, cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
