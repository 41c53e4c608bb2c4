/** Reading the trusted code's files and imports, for the architecture tests. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");

/** Every .ts and .mjs file under `dir` (repository-relative), tests left out. */
export function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|mjs)$/.test(e.name) && !e.name.endsWith(".test.ts")) out.push(rel);
  }
  return out;
}

/** A file's text. */
export function textOf(file: string): string {
  return readFileSync(join(ROOT, file), "utf8");
}

/** Every module specifier of a file: static imports and re-exports, dynamic import() of a literal. */
export function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const found = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/gms), ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g), ...text.matchAll(/^\s*import\s+["']([^"']+)["']/gm)];
  return found.map((m) => m[1]!);
}

/** The repository path an import resolves to (.js written for .ts). */
export function target(file: string, spec: string): string {
  const path = normalize(join(dirname(file), spec)).split("\\").join("/");
  return path.replace(/\.js$/, ".ts");
}

/** The harness, the sandbox and the runner: everything trusted. */
export const TRUSTED = [...sources("harness/src"), ...sources("sandbox/src"), ...sources("sandbox/runner")];
