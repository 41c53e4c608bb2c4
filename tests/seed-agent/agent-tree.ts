/**
 * Host-side helpers for agent trees in tests: read a tree, emit its JS (compiling, never
 * executing), and type-check it with the harness's strictness. Stands in for the
 * validation compile gate until that is exported.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const REPO = resolve(import.meta.dirname, "../..");
export const SEED_DIR = join(REPO, "seed-agent");
const CONTRACT = join(REPO, "harness/src/contract/evolve-contract.d.ts");

/** Every file of a tree, path (relative, `/`-separated) → text. */
export async function readTree(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files.set(relative(root, full).split("\\").join("/"), await readFile(full, "utf8"));
    }
  };
  await walk(root);
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** Emits every .ts file of `treeDir` into `buildDir` with transpileModule, plus package.json {"type":"module"}. */
export async function emitTree(treeDir: string, buildDir: string): Promise<string[]> {
  const emitted: string[] = [];
  for (const [path, text] of await readTree(treeDir)) {
    if (!path.endsWith(".ts") || path.endsWith(".d.ts")) continue;
    const out = ts.transpileModule(text, {
      fileName: path,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    const target = join(buildDir, path.replace(/\.ts$/, ".js"));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, out.outputText);
    emitted.push(path);
  }
  await writeFile(join(buildDir, "package.json"), JSON.stringify({ type: "module" }));
  return emitted;
}

/** Type-checks a tree (strict, NodeNext, contract declared, toolchain typed); returns error messages. */
export async function typeCheckTree(treeDir: string): Promise<string[]> {
  const tree = await readTree(treeDir);
  const roots = [...tree.keys()].filter((p) => p.endsWith(".ts")).map((p) => join(treeDir, p));
  // NodeNext decides ESM vs CJS from the nearest package.json; the taken tree has none.
  await writeFile(join(treeDir, "package.json"), JSON.stringify({ type: "module" }));
  const program = ts.createProgram([...roots, CONTRACT], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts"],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noImplicitOverride: true,
    noFallthroughCasesInSwitch: true,
    isolatedModules: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
    paths: {
      "ts-morph": [join(REPO, "node_modules/ts-morph/lib/ts-morph.d.ts")],
      typescript: [join(REPO, "node_modules/typescript/lib/typescript.d.ts")],
    },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => `${d.file ? relative(treeDir, d.file.fileName) : "?"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}
