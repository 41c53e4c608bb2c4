/**
 * The import rule, checked on the syntax tree of every agent file before type-checking.
 *
 * Allowed: relative imports that stay inside the tree; `@evolve/contract` as types only;
 * the toolchain packages "typescript" and "ts-morph"; the pure Node built-ins of
 * ALLOWED_NODE_BUILTINS; `import type` of anything that resolves (erased at emit). Forbidden: every other bare specifier or built-in, absolute and
 * URL specifiers, computed dynamic imports, `require`, triple-slash references and
 * augmenting the contract module.
 *
 * This is hygiene, not security: agent code can still reach `process` and friends through
 * globals. The container (no network, read-only image, limits) is the security boundary.
 */
import { isBuiltin } from "node:module";
import { posix } from "node:path";
import { ts } from "ts-morph";
import { ALLOWED_NODE_BUILTINS, CONTRACT_MODULE, TOOLCHAIN_PACKAGES } from "./compiler-options.js";

/** One breach of the import rule, located in the agent tree. */
export interface ImportViolation {
  /** "contract_redefined" for a declaration of the contract module, else "forbidden_import". */
  code: "forbidden_import" | "contract_redefined";
  file: string;
  line: number;
  message: string;
}

/** First breach of the import rule in `sourceFile` (path `relPath` in the tree), or null. */
export function findImportViolation(sourceFile: ts.SourceFile, relPath: string): ImportViolation | null {
  const at = (node: ts.Node, message: string, code: ImportViolation["code"] = "forbidden_import"): ImportViolation => {
    const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
    return { code, file: relPath, line, message: `${relPath}:${line}: ${message}` };
  };
  const directive =
    sourceFile.referencedFiles[0] ?? sourceFile.typeReferenceDirectives[0] ?? sourceFile.libReferenceDirectives[0];
  if (directive !== undefined) {
    const line = sourceFile.getLineAndCharacterOfPosition(directive.pos).line + 1;
    return { code: "forbidden_import", file: relPath, line, message: `${relPath}:${line}: triple-slash references are not allowed` };
  }
  let found: ImportViolation | null = null;
  const visit = (node: ts.Node): void => {
    if (found !== null) return;
    found = checkNode(node, relPath, at);
    if (found === null) ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

type At = (node: ts.Node, message: string, code?: ImportViolation["code"]) => ImportViolation;

function checkNode(node: ts.Node, relPath: string, at: At): ImportViolation | null {
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
    const spec = node.moduleSpecifier.text;
    if (spec === CONTRACT_MODULE) {
      return isTypeOnlyImport(node) ? null : at(node, `"${CONTRACT_MODULE}" has no runtime module: use \`import type\``);
    }
    // A type-only import is erased (verbatimModuleSyntax): nothing loads, so only the tree
    // boundary matters for it.
    if (isTypeOnlyImport(node) && !spec.startsWith(".")) return null;
    return checkSpecifier(spec, relPath, node, at);
  }
  if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
    const spec = node.moduleSpecifier.text;
    if (spec === CONTRACT_MODULE) {
      return node.isTypeOnly ? null : at(node, `"${CONTRACT_MODULE}" has no runtime module: use \`export type\``);
    }
    return checkSpecifier(spec, relPath, node, at);
  }
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
    return at(node, "`import = require(...)` is not allowed in an ES module tree");
  }
  if (ts.isCallExpression(node)) {
    if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg === undefined || !ts.isStringLiteralLike(arg)) return at(node, "dynamic import() needs a literal specifier");
      if (arg.text === CONTRACT_MODULE) return at(node, `"${CONTRACT_MODULE}" has no runtime module`);
      return checkSpecifier(arg.text, relPath, node, at);
    }
    if (ts.isIdentifier(node.expression) && node.expression.text === "require") {
      return at(node, "`require` is not allowed: the tree is ES modules");
    }
  }
  if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name) && node.name.text === CONTRACT_MODULE) {
    return at(node, `declaring or augmenting "${CONTRACT_MODULE}" is not allowed: the contract belongs to the harness`, "contract_redefined");
  }
  return null;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (clause === undefined) return false; // a side-effect import would load it at run time
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function checkSpecifier(spec: string, relPath: string, node: ts.Node, at: At): ImportViolation | null {
  if (spec.startsWith("./") || spec.startsWith("../")) {
    const target = posix.normalize(posix.join(posix.dirname(relPath), spec));
    if (target === ".." || target.startsWith("../")) return at(node, `import "${spec}" leaves the agent tree`);
    return null;
  }
  if (spec.startsWith("/") || (spec.includes(":") && !spec.startsWith("node:"))) {
    return at(node, `import "${spec}": absolute and URL specifiers are not allowed`);
  }
  if (TOOLCHAIN_PACKAGES.includes(spec)) return null;
  const bare = spec.startsWith("node:") ? spec.slice("node:".length) : spec;
  if (spec.startsWith("node:") || isBuiltin(spec)) {
    if (ALLOWED_NODE_BUILTINS.has(bare)) return null;
    return at(node, `import "${spec}": this Node built-in is not allowed (allowed: ${[...ALLOWED_NODE_BUILTINS].join(", ")})`);
  }
  return at(
    node,
    `import "${spec}": only relative imports, ${TOOLCHAIN_PACKAGES.join(", ")}, type-only "${CONTRACT_MODULE}" and pure node: built-ins are allowed`,
  );
}
