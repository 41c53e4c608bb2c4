/**
 * The compile and signature gates over one long-lived ts-morph Project. The project keeps the
 * lib files, @types/node, the toolchain declarations and the contract parsed and bound
 * between candidates, and the last tree's files too: each check shows its tree at TREE_ROOT,
 * where the files it has unchanged keep their parsed source, checks them and emits them to
 * memory. Everything between setTree and the end of a check is synchronous, so checks from
 * concurrent validations never interleave on the shared project.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { Project, type SourceFile, ts } from "ts-morph";
import type { ValidationFailure } from "../results/index.js";
import { harnessCompilerOptions, TOOLCHAIN_PACKAGES } from "./compiler-options.js";
import { ConfinedFileSystem, TREE_ROOT } from "./confined-file-system.js";
import { diagnosticsFailure, errorsOnly, semanticCode, signatureCode } from "./diagnostics.js";
import { findImportViolation } from "./import-rule.js";
import { memoBySource } from "./source-memo.js";
import { sharingPackageScopes } from "./package-scope-cache.js";
import { TESTER_FILE } from "./tester-entry.js";
import { type ToolchainPaths, defaultToolchainPaths } from "./toolchain-paths.js";
import { type CacheInput, CandidateKeys, VerifiedCache } from "./verified-cache.js";
import { storeNamespace, VerifiedStore, verifiedStoreRoot } from "./verified-store.js";
import { EvolveError } from "../kernel/index.js";

/** An emitted JS file, by its path relative to the build dir. */
export interface EmittedFile {
  path: string;
  text: string;
}

/** Result of gates 1 and 2 over one tree; milliseconds for each gate that ran. */
export type StaticCheck =
  | { ok: true; files: EmittedFile[]; compileMs: number; signatureMs: number }
  | { ok: false; failure: ValidationFailure; compileMs: number; signatureMs?: number };

interface Entry {
  name: string;
  contractType: string;
  file: string;
  specifier: string;
}

const ENTRIES: readonly Entry[] = [
  { name: "solve", contractType: "SolveFn", file: "task/index.ts", specifier: "./task/index.js" },
  { name: "improve", contractType: "ImproveFn", file: "meta/index.ts", specifier: "./meta/index.js" },
];
/** Checked only in a tree that has it (the policy gate says whether it must). */
const TESTER: Entry = { name: "propose", contractType: "ProposeFn", file: TESTER_FILE, specifier: "./tester/index.js" };

/** The entries a tree of these files is checked against. */
function entriesOf(files: readonly string[]): readonly Entry[] {
  return files.includes(TESTER.file) ? [...ENTRIES, TESTER] : ENTRIES;
}

const CHECK_FILE = "__evolve_signature_check__";
/** The import rule over a file (the walk of its whole syntax), once per text and path. */
const importViolationOf = memoBySource((source, path) => findImportViolation(source, path));
/** A tree larger than this (characters of TypeScript) is not kept for the next check. */
const KEEP_TREE_BYTES = 1024 * 1024;

const WARM_UP_SOURCE = `import type { ImproveFn, Json, SolveFn } from "@evolve/contract";
interface Item { id: string; score: number; tags: readonly string[] }
const rank = (items: readonly Item[]): Map<string, number> =>
  new Map(items.filter((i) => i.tags.length > 0).sort((a, b) => b.score - a.score).map((i, n) => [i.id, n]));
export const solve: SolveFn = async (input: Json) => {
  const list = Array.isArray(input) ? input : [];
  return [...rank(list.map((x, i) => ({ id: String(i), score: typeof x === "number" ? x : 0, tags: ["a"] }))).keys()];
};
export const improve: ImproveFn = async (request, ctx) => {
  const files = await ctx.files.list();
  for (const f of files) if (f.endsWith(".ts")) await ctx.files.read(f);
  return { summary: \`\${request.generation.id}: \${files.length} files\`, changedFiles: [] };
};
`;

function signatureSource(entries: readonly Entry[]): string {
  const lines = [`import type { ${entries.map((e) => e.contractType).join(", ")} } from "@evolve/contract";`];
  for (const e of entries) lines.push(`import { ${e.name} } from "${e.specifier}";`);
  for (const e of entries) lines.push(`export const ${e.name}MatchesContract: ${e.contractType} = ${e.name};`);
  return lines.join("\n") + "\n";
}

function inside(root: string, path: string): boolean {
  return path.startsWith(root + sep);
}

/** Everything besides the tree that a check's result depends on: the store's namespace. */
function toolchainNamespace(paths: ToolchainPaths, options: ts.CompilerOptions): string {
  const text = (path: string): string => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return "absent";
    }
  };
  const version = (pkg: string): string => text(join(paths.nodeModules, pkg, "package.json")).match(/"version"\s*:\s*"([^"]+)"/)?.[1] ?? "unknown";
  return storeNamespace({
    typescript: ts.version,
    tsMorph: version("ts-morph"),
    typesNode: version("@types/node"),
    options,
    nodeModules: paths.nodeModules,
    packageTypes: [...paths.packageTypes],
    contract: createHash("sha256").update(text(paths.contractFile)).digest("hex"),
    // What proofs meant before the tree's files were told they are ESM (esModule) is not reused.
    treeFormat: "esm",
  });
}

/** The shared compiler for agent trees: create once, reuse for every candidate. */
export class TreeCompiler {
  readonly #project: Project;
  readonly #fs: ConfinedFileSystem;
  readonly #paths: ToolchainPaths;
  readonly #verified: VerifiedCache;

  /** `storeRoot`: where proven files are kept for the next worker (verified-store.ts); null for memory only. */
  constructor(paths: ToolchainPaths = defaultToolchainPaths(), storeRoot: string | null = verifiedStoreRoot()) {
    this.#paths = paths;
    this.#fs = new ConfinedFileSystem([paths.nodeModules, paths.contractFile]);
    const typeRoots = [join(paths.nodeModules, "@types")];
    const compilerOptions = harnessCompilerOptions(typeRoots);
    this.#verified = new VerifiedCache(undefined, VerifiedStore.open(storeRoot, toolchainNamespace(paths, compilerOptions)));
    this.#project = new Project({
      compilerOptions,
      fileSystem: this.#fs,
      skipAddingFilesFromTsConfig: true,
      resolutionHost: (host, getOptions) => ({
        resolveModuleNames: sharingPackageScopes(getOptions(), (names, containingFile, _reused, _redirect, _options, containingSourceFile) =>
          names.map((name) => this.#resolve(name, containingFile, containingSourceFile?.impliedNodeFormat, host, getOptions())),
        ),
      }),
    });
    this.#project.addSourceFileAtPath(paths.contractFile);
  }

  #tree: string | null = null;
  /**
   * Resolutions made from toolchain files (lib, @types/node, the contract, the toolchain's
   * declarations), which no tree changes: the toolchain is fixed for this compiler's life, and
   * the tree is never on their lookup path (see #resolve). Each check's new program would
   * otherwise redo some 500 of them, mostly failing lookups of @types/node's "node:*" imports.
   */
  readonly #toolchainResolutions = new Map<string, ts.ResolvedModuleFull | undefined>();

  /**
   * Parses and binds the lib files, @types/node and the contract now (a checker over them
   * alone), so the first candidate's time limit is not spent on the compiler's own start.
   */
  warm(): void {
    // A small module in the shape of an agent's: the checker's first pass over real code is
    // where V8 compiles most of TypeScript itself.
    const file = this.#project.createSourceFile("/__evolve_warm_up__/warm.ts", WARM_UP_SOURCE, { overwrite: true });
    try {
      const program = this.#project.getProgram().compilerObject;
      const source = program.getSourceFile(file.getFilePath());
      if (source !== undefined) program.getSemanticDiagnostics(source);
      program.emit(source, () => undefined);
    } finally {
      this.#project.removeSourceFile(file);
    }
  }

  #resolve(
    name: string,
    containingFile: string,
    containingFormat: ts.ResolutionMode,
    host: ts.ModuleResolutionHost,
    options: ts.CompilerOptions,
  ): ts.ResolvedModuleFull | undefined {
    const tree = this.#tree;
    const fromTree = tree !== null && inside(tree, resolve(containingFile));
    if (fromTree && TOOLCHAIN_PACKAGES.includes(name)) {
      const types = this.#paths.packageTypes.get(name);
      return types === undefined ? undefined : { resolvedFileName: types, extension: ts.Extension.Dts, isExternalLibraryImport: true };
    }
    // The tree is ESM by construction; toolchain declarations resolve in their own format.
    const mode = fromTree ? ts.ModuleKind.ESNext : containingFormat;
    // A lookup from a toolchain file only walks the toolchain's folders and their ancestors,
    // and the tree is seen only at TREE_ROOT, which holds no toolchain (ConfinedFileSystem).
    const reusable = !fromTree;
    const key = `${containingFile}\0${name}\0${mode ?? ""}`;
    if (reusable && this.#toolchainResolutions.has(key)) return this.#toolchainResolutions.get(key);
    const found = ts.resolveModuleName(name, containingFile, options, host, undefined, undefined, mode).resolvedModule;
    if (reusable) this.#toolchainResolutions.set(key, found);
    if (!fromTree) return found;
    // From the tree only relative imports resolve, and only to files of the tree; Node
    // built-ins then fall back to @types/node's ambient module declarations.
    if (!name.startsWith("./") && !name.startsWith("../")) return undefined;
    return found !== undefined && inside(tree, resolve(found.resolvedFileName)) ? found : undefined;
  }

  /**
   * Gates 1 and 2 for the tree at `treeDir` whose files (relative, `/`-separated) are `files`;
   * `onSignature` is called when gate 1 passed and gate 2 starts.
   */
  check(treeDir: string, files: readonly string[], onSignature: () => void = () => undefined): StaticCheck {
    const root = TREE_ROOT;
    const started = performance.now();
    const tsFiles = files.filter((f) => f.endsWith(".ts")).sort();
    const entries = entriesOf(files);
    let checkName = `${CHECK_FILE}.ts`;
    for (let i = 1; files.includes(checkName); i++) checkName = `${CHECK_FILE}${i}.ts`;
    this.#tree = root;
    this.#fs.setTree(resolve(treeDir));
    let keptBytes = 0;
    try {
      const texts = new Map(tsFiles.map((f) => [join(root, f), this.#fs.readFileSync(join(root, f))]));
      for (const text of texts.values()) keptBytes += text.length;
      const added = this.#showTree(texts.set(join(root, checkName), signatureSource(entries)));
      const checkFile = added.pop()!;
      const program = this.#project.getProgram().compilerObject;
      const sources = added.map((sf) => {
        const source = program.getSourceFile(sf.getFilePath());
        if (source === undefined) throw new EvolveError("internal", `compiler lost ${sf.getFilePath()}`);
        return { path: relative(root, source.fileName).split(sep).join("/"), source };
      });
      const keys = new CandidateKeys(sources);
      const compileFailure = this.#compileFailure(program, sources, keys, root);
      if (compileFailure !== null) return { ok: false, failure: compileFailure, compileMs: performance.now() - started };
      const emitted = this.#emit(program, sources, keys);
      const compileMs = performance.now() - started;
      onSignature();
      const signatureStarted = performance.now();
      const signatureKey = `signature\0${keys.keyOf(...entries.map((e) => e.file))}`;
      const checkSource = program.getSourceFile(checkFile.getFilePath());
      const signatureErrors =
        this.#verified.get(signatureKey) !== undefined || checkSource === undefined
          ? []
          : errorsOnly(program.getSemanticDiagnostics(checkSource));
      const signatureMs = performance.now() - signatureStarted;
      if (signatureErrors.length > 0) {
        const failure = diagnosticsFailure("signature", signatureCode(signatureErrors), signatureErrors, root);
        return { ok: false, failure: relocateSignature(failure, signatureErrors, added, checkName, entries), compileMs, signatureMs };
      }
      this.#verified.set(signatureKey, { js: null });
      return { ok: true, files: emitted, compileMs, signatureMs };
    } finally {
      // A usual tree's files stay for the next check to keep those it has unchanged; a large
      // one goes, so its parsed source never eats into the next candidate's memory cap.
      if (keptBytes > KEEP_TREE_BYTES) this.#showTree(new Map());
      this.#tree = null;
      this.#fs.setTree(null);
    }
  }

  /**
   * Makes the project's files under TREE_ROOT exactly `texts` (path to text; answered in that
   * order): a file already there with the same text keeps its parsed and bound source, every
   * other one is removed or parsed anew. A source depends only on its text and the fixed
   * options (the tree is always ESM), so the program built from it is the one a project that
   * never saw another tree would build.
   */
  #showTree(texts: Map<string, string>): SourceFile[] {
    for (const sf of this.#project.getSourceFiles()) {
      const path = sf.getFilePath();
      if (inside(TREE_ROOT, path) && texts.get(path) !== sf.getFullText()) this.#project.removeSourceFile(sf);
    }
    return [...texts].map(([path, text]) => this.#project.getSourceFile(path) ?? esModule(this.#project.createSourceFile(path, text, { overwrite: true })));
  }

  /** Emit to memory, reusing the JS of proven files; remember every file as clean. */
  #emit(program: ts.Program, files: readonly CacheInput[], keys: CandidateKeys): EmittedFile[] {
    const out: EmittedFile[] = [];
    for (const { path, source } of files) {
      const key = keys.keyOf(path);
      let js = this.#verified.get(key)?.js;
      if (js === undefined) {
        js = null;
        if (!source.isDeclarationFile) {
          const result = program.emit(source, (fileName, text) => {
            if (fileName.endsWith(".js")) js = text;
          });
          if (result.emitSkipped || js === null) throw new EvolveError("internal", `emit skipped for ${path} after a clean check`);
        }
        this.#verified.set(key, { js });
      }
      if (js !== null) out.push({ path: path.replace(/\.ts$/, ".js"), text: js });
    }
    return out;
  }

  #compileFailure(program: ts.Program, files: readonly CacheInput[], keys: CandidateKeys, root: string): ValidationFailure | null {
    const sources = files.map((f) => f.source);
    const optionErrors = errorsOnly(program.getOptionsDiagnostics());
    if (optionErrors.length > 0) {
      const words = optionErrors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")).join("; ");
      throw new EvolveError("internal", `harness compiler options rejected: ${words}`);
    }
    const syntax = sources.flatMap((s) => errorsOnly(program.getSyntacticDiagnostics(s)));
    if (syntax.length > 0) return diagnosticsFailure("compile", "syntax_error", syntax, root);
    for (const { path, source } of files) {
      const violation = importViolationOf(source, path);
      if (violation !== null) return { stage: "compile", ...violation };
    }
    // Files whose whole reachable closure was proven clean before are not checked again.
    const unproven = files.filter((f) => this.#verified.get(keys.keyOf(f.path)) === undefined);
    const semantic = [
      ...errorsOnly(program.getGlobalDiagnostics()),
      ...unproven.flatMap((f) => errorsOnly(program.getSemanticDiagnostics(f.source))),
    ];
    if (semantic.length > 0) return diagnosticsFailure("compile", semanticCode(semantic), semantic, root);
    return null;
  }
}

/**
 * The tree is ESM, and says so to TypeScript on each of its files: ts-morph parses a file
 * without the module format NodeNext gives it from the package.json above, and the checks that
 * read the format (import.meta's, TS1470) would take it for CommonJS.
 */
function esModule(file: SourceFile): SourceFile {
  file.compilerNode.impliedNodeFormat = ts.ModuleKind.ESNext;
  return file;
}

/** Point a signature failure at the agent's entry file and export, not the synthetic check file. */
function relocateSignature(
  failure: ValidationFailure,
  diagnostics: readonly ts.Diagnostic[],
  added: readonly SourceFile[],
  checkName: string,
  entries: readonly Entry[],
): ValidationFailure {
  const first = diagnostics[0];
  if (first?.file === undefined || first.start === undefined) return failure;
  const checkLine = first.file.getLineAndCharacterOfPosition(first.start).line; // 0: contract import
  const entry = entries[(checkLine - 1) % entries.length];
  if (entry === undefined) return failure;
  const entryFile = added.find((sf) => sf.getFilePath().endsWith(`/${entry.file}`));
  const declaration = entryFile?.getExportedDeclarations().get(entry.name)?.[0];
  const line = declaration?.getStartLineNumber() ?? null;
  const where = line === null ? entry.file : `${entry.file}:${line}`;
  const words = failure.message.replaceAll(`${checkName}:`, `(contract check of ${entry.file}):`);
  return { ...failure, file: entry.file, line, message: `${where}: export \`${entry.name}\` must be ${entry.contractType}\n${words}` };
}
