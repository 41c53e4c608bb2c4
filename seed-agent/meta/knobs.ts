/**
 * Knobs: the values the offline strategy may change in a source file, found with ts-morph.
 * An annotated knob is a literal initializer followed on its line by a comment
 * `// evolve:range LO..HI [int]`, `// evolve:choices "a" | "b"` or `// evolve:flag`; a plain
 * knob is an unannotated positive numeric literal (the fallback where no annotation exists).
 */
import { Node, SyntaxKind, type SourceFile } from "ts-morph";

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

/** Strips `as T`, `satisfies T`, `<T>` and parentheses around a literal. */
function unwrap(node: Node): Node {
  let current = node;
  while (
    Node.isAsExpression(current) ||
    Node.isSatisfiesExpression(current) ||
    Node.isParenthesizedExpression(current) ||
    Node.isTypeAssertion(current)
  ) {
    current = current.getExpression();
  }
  return current;
}

function isLiteral(node: Node): boolean {
  if (Node.isNumericLiteral(node) || Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return true;
  if (node.getKind() === SyntaxKind.TrueKeyword || node.getKind() === SyntaxKind.FalseKeyword) return true;
  return (
    Node.isPrefixUnaryExpression(node) &&
    node.getOperatorToken() === SyntaxKind.MinusToken &&
    Node.isNumericLiteral(node.getOperand())
  );
}

/** The dotted path of a declaration: `params.iterations`, `search.stepScale`, `LIMIT`. */
function declarationPath(node: Node): string {
  const parts: string[] = [];
  let current: Node | undefined = node;
  while (current) {
    if (Node.isPropertyAssignment(current) || Node.isVariableDeclaration(current)) parts.unshift(current.getName());
    else if (!Node.isObjectLiteralExpression(current) && !Node.isAsExpression(current) && !Node.isSatisfiesExpression(current)) break;
    current = current.getParent();
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
export function annotatedKnobs(file: string, sf: SourceFile): Knob[] {
  const full = sf.getFullText();
  const knobs: Knob[] = [];
  for (const decl of [
    ...sf.getDescendantsOfKind(SyntaxKind.PropertyAssignment),
    ...sf.getDescendantsOfKind(SyntaxKind.VariableDeclaration),
  ]) {
    const init = decl.getInitializer();
    if (!init) continue;
    const literal = unwrap(init);
    if (!isLiteral(literal)) continue;
    const annotation = annotationAfter(full, decl.getEnd());
    const spec = annotation === null ? null : parseAnnotation(annotation);
    if (!spec) continue;
    knobs.push({ file, name: declarationPath(decl), spec, text: literal.getText(), start: literal.getStart(), end: literal.getEnd() });
  }
  return knobs.sort((a, b) => a.start - b.start);
}

/** Plain positive decimal literals outside type positions, indexes, enums and case labels. */
export function literalKnobs(file: string, sf: SourceFile, exclude: readonly Knob[]): Knob[] {
  const knobs: Knob[] = [];
  for (const lit of sf.getDescendantsOfKind(SyntaxKind.NumericLiteral)) {
    const text = lit.getText();
    if (!/^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) continue;
    const value = Number(text);
    if (value === 0 || value === 1 || !Number.isFinite(value)) continue;
    const parent = lit.getParent();
    if (
      !parent ||
      Node.isLiteralTypeNode(parent) ||
      Node.isEnumMember(parent) ||
      Node.isCaseClause(parent) ||
      Node.isElementAccessExpression(parent) ||
      Node.isPrefixUnaryExpression(parent)
    ) continue;
    const start = lit.getStart();
    if (exclude.some((k) => start >= k.start && start < k.end)) continue;
    const { line, column } = sf.getLineAndColumnAtPos(start);
    knobs.push({ file, name: `literal@L${line}:${column}`, spec: { kind: "literal", int: /^\d+$/.test(text) }, text, start, end: lit.getEnd() });
  }
  return knobs;
}
