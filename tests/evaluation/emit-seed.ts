/**
 * Test helper: emits the seed's task side (seed-agent/task/**) as JS into a temp build dir
 * with package.json {"type":"module"}. Compiling only; the JS runs only in containers.
 */
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

const SEED = new URL("../../seed-agent/", import.meta.url).pathname;

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await tsFiles(path)));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** Writes JS files given as { "task/index.js": source } into a fresh build dir. */
export async function writeBuild(files: Record<string, string>, prefix = "evolve-build-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** The seed's task agent, transpiled module by module (ES2022, ESM). */
export async function emitSeedTask(): Promise<string> {
  const files: Record<string, string> = {};
  for (const path of await tsFiles(join(SEED, "task"))) {
    const source = await readFile(path, "utf8");
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
      fileName: path,
    });
    files[relative(SEED, path).replace(/\.ts$/, ".js")] = outputText;
  }
  return writeBuild(files, "evolve-seed-build-");
}
