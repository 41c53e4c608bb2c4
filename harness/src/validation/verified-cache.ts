/**
 * Memory of files already proven clean, so a candidate only re-checks what its rewrite
 * touched. A file's key hashes its own text, the text of every tree file it can reach
 * through relative imports (over-approximated by path stem), and every file that can change
 * types elsewhere (scripts, `declare global`, `declare module "..."`). Same key, same
 * diagnostics and the same emitted JS: the compiler options and toolchain are fixed for the
 * lifetime of one TreeCompiler, which owns its cache, and are the namespace of the store
 * that carries it across workers.
 */
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { ts } from "ts-morph";
import type { VerifiedFile, VerifiedStore } from "./verified-store.js";
import { memoBySource } from "./source-memo.js";

/** A tree file as the cache sees it. */
export interface CacheInput {
  /** `/`-separated, relative to the tree root. */
  path: string;
  source: ts.SourceFile;
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");
const textHash = memoBySource((source) => sha(source.text));

/** Strip the extensions a NodeNext import or a tree file name may carry. */
function stem(path: string): string {
  return path.replace(/\.d\.ts$/, "").replace(/\.(ts|js|mjs|cjs|mts|cts|tsx|jsx|json)$/, "");
}

const relativeSpecifiers = memoBySource(function relativeSpecifiersOf(source: ts.SourceFile): string[] {
  const specs: string[] = [];
  const visit = (node: ts.Node): void => {
    let spec: ts.Node | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) spec = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) spec = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = node.argument.literal;
    if (spec !== undefined && ts.isStringLiteralLike(spec) && spec.text.startsWith(".")) specs.push(spec.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs;
});

const touchesGlobals = memoBySource(function touchesGlobalsOf(source: ts.SourceFile): boolean {
  if (!ts.isExternalModule(source)) return true;
  return source.statements.some(
    (s) => ts.isModuleDeclaration(s) && (ts.isStringLiteral(s.name) || s.name.text === "global"),
  );
});

/** Keys of one candidate's files; computed once per check. */
export class CandidateKeys {
  readonly #keys = new Map<string, string>();
  readonly #deps = new Map<string, string[]>();
  readonly #hashes = new Map<string, string>();
  readonly #globals: string[];

  constructor(files: readonly CacheInput[]) {
    const byStem = new Map<string, string[]>();
    for (const f of files) {
      this.#hashes.set(f.path, textHash(f.source));
      byStem.set(stem(f.path), [...(byStem.get(stem(f.path)) ?? []), f.path]);
    }
    for (const f of files) {
      const deps = relativeSpecifiers(f.source).flatMap((spec) => {
        const target = stem(posix.normalize(posix.join(posix.dirname(f.path), spec)));
        // A folder import could reach its index file: include every file under it too.
        const under = [...byStem.keys()].filter((s) => s.startsWith(`${target}/`));
        return [target, ...under].flatMap((s) => byStem.get(s) ?? []);
      });
      this.#deps.set(f.path, deps);
    }
    this.#globals = files.filter((f) => touchesGlobals(f.source)).map((f) => f.path);
  }

  /** The key of `path`: its closure of reachable tree files plus every global-touching file. */
  keyOf(...roots: string[]): string {
    const memo = roots.length === 1 ? this.#keys.get(roots[0] ?? "") : undefined;
    if (memo !== undefined) return memo;
    const seen = new Set<string>();
    const stack = [...roots, ...this.#globals];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(this.#deps.get(next) ?? []));
    }
    const closure = [...seen].sort().map((p) => `${p}\0${this.#hashes.get(p) ?? "absent"}`);
    const key = sha(`${roots.join("\0")}\n${closure.join("\n")}`);
    if (roots.length === 1) this.#keys.set(roots[0] ?? "", key);
    return key;
  }
}

/**
 * Bounded memory of clean files and passed signature checks, oldest forgotten first; with a
 * store (verified-store.ts), what one worker proved is there for the next one too.
 */
export class VerifiedCache {
  readonly #entries = new Map<string, VerifiedFile>();
  readonly #limit: number;
  readonly #store: VerifiedStore | null;

  constructor(limit = 4_096, store: VerifiedStore | null = null) {
    this.#limit = limit;
    this.#store = store;
  }

  get(key: string): VerifiedFile | undefined {
    const known = this.#entries.get(key);
    if (known !== undefined || this.#store === null) return known;
    const stored = this.#store.read(key);
    if (stored !== undefined) this.#remember(key, stored);
    return stored;
  }

  set(key: string, value: VerifiedFile): void {
    const had = this.#entries.get(key);
    this.#remember(key, value);
    if (had === undefined || had.js !== value.js) this.#store?.write(key, value);
  }

  #remember(key: string, value: VerifiedFile): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#limit) break;
      this.#entries.delete(oldest);
    }
  }
}
