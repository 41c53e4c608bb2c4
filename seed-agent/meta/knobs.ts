/**
 * Knobs: the values the offline strategy may change in a source file, found in its syntax
 * tree (TypeScript's parser alone: finding and moving a literal needs no types, and a parse
 * costs a fraction of what a ts-morph project does to load and wrap the same tree).
 * An annotated knob is a literal initializer followed on its line by a comment
 * `// evolve:range LO..HI [int]`, `// evolve:choices "a" | "b"` or `// evolve:flag`; a plain
 * knob is an unannotated positive numeric literal (the fallback where no annotation exists).
 */
import ts from "typescript";

export type KnobSpec =
  | { kind: "range"; min: number; max: number; int: boolean }
  | { kind: "choices"; options: string[] }
  | { kind: "flag" }
  | { kind: "literal"; int: boolean };

/** One changeable literal: where it is and what it may become. */
export interface Knob {
  file: string;
  /** Stable within a file: the dotted declaration path, or `literal@L<line>:<col>`. */
  name: string;
  spec: KnobSpec;
  /** The literal's source text (a JSON-like token: 12, -0.5, "greedy", true). */
  text: string;
  start: number;
  end: number;
}

const NUMBER = String.raw`-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`;
const RANGE = new RegExp(String.raw`^range\s+(${NUMBER})\s*\.\.\s*(${NUMBER})(\s+int)?`);

/** Parses the text after `evolve:`; null when it is not a known annotation. */
export function parseAnnotation(text: string): KnobSpec | null {
  const range = RANGE.exec(text);
  if (range) {
    const min = Number(range[1]);
    const max = Number(range[2]);
    return min < max ? { kind: "range", min, max, int: range[3] !== undefined } : null;
  }
  if (/^flag\b/.test(text)) return { kind: "flag" };
  if (/^choices\b/.test(text)) {
    const options = [...text.matchAll(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?/g)].map((m) =>
      m[0].startsWith("'") ? JSON.stringify(m[0].slice(1, -1)) : m[0],
    );
    return options.length >= 2 ? { kind: "choices", options } : null;
  }
  return null;
}

/** A tree file's syntax tree, with parent links (a knob's name and kind come from its ancestors). */
export function parseSource(path: string, text: string): ts.SourceFile {
  return ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

/** Every node of `sf` that `keep` accepts, in source order. */
function nodesOf<T extends ts.Node>(sf: ts.SourceFile, keep: (node: ts.Node) => node is T): T[] {
  const found: T[] = [];
  const visit = (node: ts.Node): void => {
    if (keep(node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  return found.sort((a, b) => a.getStart(sf) - b.getStart(sf));
}

/** Strips `as T`, `satisfies T`, `<T>` and parentheses around a literal. */
function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current) || ts.isTypeAssertionExpression(current)) {
    current = current.expression;
  }
  return current;
}

function isLiteral(node: ts.Node): boolean {
  if (ts.isNumericLiteral(node) || ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword) return true;
  return ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand);
}

/** The dotted path of a declaration: `params.iterations`, `search.stepScale`, `LIMIT`. */
function declarationPath(node: ts.Node, sf: ts.SourceFile): string {
  const parts: string[] = [];
  let current: ts.Node | undefined = node;
  while (current) {
    if (ts.isPropertyAssignment(current) || ts.isVariableDeclaration(current)) parts.unshift(current.name.getText(sf));
    else if (!ts.isObjectLiteralExpression(current) && !ts.isAsExpression(current) && !ts.isSatisfiesExpression(current)) break;
    current = current.parent;
  }
  return parts.join(".");
}

/** The `evolve:` annotation on the rest of the line after `end`, if any. */
function annotationAfter(full: string, end: number): string | null {
  const lineEnd = full.indexOf("\n", end);
  const rest = full.slice(end, lineEnd === -1 ? full.length : lineEnd);
  const match = /\/\/\s*evolve:(.*)$/.exec(rest);
  return match?.[1]?.trim() ?? null;
}

/** Every annotated knob of a source file, in source order. */
export function annotatedKnobs(file: string, sf: ts.SourceFile): Knob[] {
  const knobs: Knob[] = [];
  const declarations = nodesOf(sf, (n): n is ts.PropertyAssignment | ts.VariableDeclaration => ts.isPropertyAssignment(n) || ts.isVariableDeclaration(n));
  for (const decl of declarations) {
    if (decl.initializer === undefined) continue;
    const literal = unwrap(decl.initializer);
    if (!isLiteral(literal)) continue;
    const annotation = annotationAfter(sf.text, decl.end);
    const spec = annotation === null ? null : parseAnnotation(annotation);
    if (!spec) continue;
    knobs.push({ file, name: declarationPath(decl, sf), spec, text: literal.getText(sf), start: literal.getStart(sf), end: literal.end });
  }
  return knobs.sort((a, b) => a.start - b.start);
}

/**
 * Line and column of `pos`, both from 1, as plain knobs have always been named: lines counted
 * by "\n", a column from the last "\n" or "\r" before it.
 */
function lineAndColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < pos; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (c === 10 || c === 13) lineStart = i + 1;
  }
  return { line, column: pos - lineStart + 1 };
}

/** Plain positive decimal literals outside type positions, indexes, enums and case labels. */
export function literalKnobs(file: string, sf: ts.SourceFile, exclude: readonly Knob[]): Knob[] {
  const knobs: Knob[] = [];
  for (const lit of nodesOf(sf, ts.isNumericLiteral)) {
    const text = lit.getText(sf);
    if (!/^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) continue;
    const value = Number(text);
    if (value === 0 || value === 1 || !Number.isFinite(value)) continue;
    const parent = lit.parent;
    if (ts.isLiteralTypeNode(parent) || ts.isEnumMember(parent) || ts.isCaseClause(parent) || ts.isElementAccessExpression(parent) || ts.isPrefixUnaryExpression(parent)) continue;
    const start = lit.getStart(sf);
    if (exclude.some((k) => start >= k.start && start < k.end)) continue;
    const { line, column } = lineAndColumn(sf.text, start);
    knobs.push({ file, name: `literal@L${line}:${column}`, spec: { kind: "literal", int: /^\d+$/.test(text) }, text, start, end: lit.end });
  }
  return knobs;
}
