/**
 * Functions short enough to read at once: no function of the trusted code (harness/src,
 * sandbox/) or of the seed agent (the first agent code a user reads) spans more than 60 lines
 * unless the comment just above it says why, starting with "Long on purpose:". Functions are found with the TypeScript parser, nested ones too.
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sources, textOf } from "./source-files.js";

const MAX_LINES = 60;
const MARK = "Long on purpose:";

/** `name (lines) file:line` for every function over the limit whose leading comment lacks the mark. */
function longFunctions(files: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const text = textOf(file);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node)) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > MAX_LINES && !explained(text, node)) out.push(`${nameOf(node)} (${last - first + 1} lines) ${file}:${first + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** Whether the comments just above the function (or the statement that holds it) carry the mark. */
function explained(text: string, node: ts.Node): boolean {
  const holders = [node, node.parent, node.parent?.parent, node.parent?.parent?.parent].filter((n): n is ts.Node => n !== undefined);
  return holders.some((n) => (ts.getLeadingCommentRanges(text, n.getFullStart()) ?? []).some((r) => text.slice(r.pos, r.end).includes(MARK)));
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name !== undefined) return named.name.getText();
  const parent = node.parent;
  if (parent !== undefined && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  return "(anonymous)";
}

describe("function length", () => {
  it("no function of the trusted code or the seed agent is over 60 lines without saying why", () => {
    const files = [...sources("harness/src"), ...sources("sandbox/src"), ...sources("sandbox/runner"), ...sources("seed-agent")].filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
    expect(files.length).toBeGreaterThan(100);
    expect(longFunctions(files)).toEqual([]);
  });

  it("finds a long function, and accepts one that says why (the check itself is checked)", () => {
    const body = Array.from({ length: MAX_LINES + 5 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const parse = (code: string): string[] => {
      const source = ts.createSourceFile("x.ts", code, ts.ScriptTarget.Latest, true);
      let found = 0;
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionDeclaration(node) && !explained(code, node)) found++;
        ts.forEachChild(node, visit);
      };
      visit(source);
      return Array.from({ length: found }, () => "long");
    };
    expect(parse(`function f() {\n${body}\n}`)).toHaveLength(1);
    expect(parse(`// ${MARK} a table that reads best whole\nfunction f() {\n${body}\n}`)).toHaveLength(0);
  });
});
