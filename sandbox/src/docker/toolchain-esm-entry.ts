/**
 * ES-module entries for the toolchain packages agents import (typescript, ts-morph). Both are
 * CommonJS, and when an ES module imports a CommonJS package, Node first scans the package's
 * whole main file for its export names (cjs-module-lexer), at every load, with no cache: in a
 * container that took ~0.18 CPU-s for ts-morph (1 MB) and ~0.6 for typescript (9 MB), more than
 * loading either by `require` from its code cache (toolchain-code-cache.ts). Agents are ES
 * modules and may not use `node:module` to require, so the image gives them an entry that does
 * it for them:
 *
 * - each package gets `evolve-esm-entry.mjs`, which requires the package's main file (so its
 *   code cache serves) and re-exports `default` and every name Node's own import of the package
 *   gives, listed once when the image is staged, in a fresh process of the Node it copies;
 * - its package.json gets an `exports` map: `import` goes to that entry, anything else (a
 *   `require`) to the main file as before, and every file stays reachable by its path.
 *
 * So an agent's import of either, by name or by default, gets what it got before, sooner. A package that already has an `exports` map is left as it is. When
 * the names cannot be listed, no entry is added and imports scan as before.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runNodeScript } from "./node-script.js";

/** The entry's file name inside each package. */
export const ESM_ENTRY_FILE = "evolve-esm-entry.mjs";

/** Importing typescript this way scans it once: about a second of CPU, rarely more. */
const LIST_TIMEOUT_MS = 60_000;

interface PackageManifest {
  main?: string;
  exports?: unknown;
  [key: string]: unknown;
}

/** The package's main file, relative to its folder, as Node finds it without an `exports` map. */
function mainOf(manifest: PackageManifest): string {
  const main = (manifest.main ?? "index.js").replace(/^\.\//, "");
  return `./${main.endsWith(".js") || main.endsWith(".cjs") ? main : `${main}.js`}`;
}

/**
 * The names Node's import of each main file (by its path, as the lexer scans it) gives besides
 * `default`, listed in a fresh process of `nodeBinary` with no flags and an empty environment.
 */
export function listCommonJsExports(nodeBinary: string, mains: Record<string, string>): Promise<{ ok: true; names: Record<string, string[]> } | { ok: false; reason: string }> {
  const urls = Object.fromEntries(Object.entries(mains).map(([name, file]) => [name, pathToFileURL(file).href]));
  const program = [
    `const urls = ${JSON.stringify(urls)};`,
    "const names = {};",
    'for (const [name, url] of Object.entries(urls)) names[name] = Object.keys(await import(url)).filter((key) => key !== "default");',
    "process.stdout.write(JSON.stringify(names));",
  ].join("\n");
  return runNodeScript(nodeBinary, program, LIST_TIMEOUT_MS, 8 << 20).then((run) => (run.ok ? { ok: true, names: run.value as Record<string, string[]> } : run));
}

/** The entry module of a package whose main file is `main` (relative, `./`-prefixed) and whose import gives `names`. */
export function esmEntrySource(main: string, names: readonly string[]): string {
  const lines = [
    "// Made when the runtime image was staged (sandbox/src/docker/toolchain-esm-entry.ts): the",
    "// package's CommonJS main, required, with the names Node's import of it gives.",
    'import { createRequire } from "node:module";',
    `const m = createRequire(import.meta.url)(${JSON.stringify(main)});`,
    "export default m;",
  ];
  const bindings = names.map((name, i) => {
    lines.push(`const e${i} = m[${JSON.stringify(name)}];`);
    return `e${i} as ${JSON.stringify(name)}`;
  });
  if (bindings.length > 0) lines.push(`export { ${bindings.join(", ")} };`);
  return `${lines.join("\n")}\n`;
}

/** The package.json of a package with the entry: `import` to it, the rest as before. */
function withEntry(manifest: PackageManifest): PackageManifest {
  const main = mainOf(manifest);
  return { ...manifest, exports: { ".": { import: `./${ESM_ENTRY_FILE}`, default: main }, "./package.json": "./package.json", "./*": "./*" } };
}

/**
 * Gives each package in `packageDirs` (by name: the staged folder whose package.json and entry
 * may be written) its ES-module entry. `readDirs` are where each package's files are read from
 * (the same folders in the image; the real packages for a stage that links them). Returns the
 * packages that got one, or why none did.
 */
export async function addEsmEntries(
  nodeBinary: string,
  packageDirs: Record<string, string>,
  readDirs: Record<string, string> = packageDirs,
): Promise<{ ok: true; packages: string[] } | { ok: false; reason: string }> {
  const manifests = new Map<string, PackageManifest>();
  for (const name of Object.keys(packageDirs)) {
    const manifest = JSON.parse(await readFile(join(readDirs[name] ?? packageDirs[name]!, "package.json"), "utf8")) as PackageManifest;
    // An exports map of its own already decides what an import gets.
    if (manifest.exports === undefined) manifests.set(name, manifest);
  }
  const mains = Object.fromEntries([...manifests].map(([name, manifest]) => [name, join(readDirs[name] ?? packageDirs[name]!, mainOf(manifest))]));
  const listed = await listCommonJsExports(nodeBinary, mains);
  if (!listed.ok) return listed;
  for (const [name, manifest] of manifests) {
    const names = listed.names[name];
    if (!Array.isArray(names)) return { ok: false, reason: `no export names for ${name}` };
    const dir = packageDirs[name]!;
    await writeFile(join(dir, ESM_ENTRY_FILE), esmEntrySource(mainOf(manifest), names));
    await writeFile(join(dir, "package.json"), `${JSON.stringify(withEntry(manifest), null, 2)}\n`);
  }
  return { ok: true, packages: [...manifests.keys()] };
}
