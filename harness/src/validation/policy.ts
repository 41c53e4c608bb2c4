/**
 * Gate 0, policy: what the tree may contain before the compiler reads a byte of it.
 * Order: the shape (lstat walk: links, odd names, caps), then forbidden files and install
 * hooks, then the files the contract needs, then the diff against the parent: first the
 * run policy's protected paths (no child may add, change or delete them), then the
 * non-empty-diff rule.
 */
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { type CodeOf, failure, type ValidationFailure } from "../results/index.js";
import { z } from "zod";
import { EvolveError, readJson } from "../kernel/index.js";
import { firstMatchOf } from "../supervision/index.js";
import type { PolicyCaps } from "./policy-caps.js";
import { TESTER_FILE } from "./tester-entry.js";
import { type TreeFile, walkTree } from "./tree-walk.js";

/** Files the contract needs: the task agent and the meta agent entry modules. */
export const REQUIRED_FILES: readonly string[] = ["task/index.ts", "meta/index.ts"];

/** Files that belong to a package installer, never to an agent tree. */
const FORBIDDEN_NAMES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  "deno.lock",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
]);

/** Module formats other than ES module .ts: the tree is compiled as ESM only. */
const FORBIDDEN_EXTENSIONS = [".mts", ".cts", ".tsx", ".jsx"];

/** npm lifecycle scripts that run on install. */
const INSTALL_HOOKS = ["preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare", "prepublish"];

export type PolicyResult = { ok: true; files: TreeFile[] } | { ok: false; failure: ValidationFailure };

function fail(code: CodeOf<"policy">, file: string | null, message: string): PolicyResult {
  return { ok: false, failure: failure("policy", code, message, { file }) };
}

/**
 * Gate 0 for `childDir`; with `parentDir` null (the seed) the diff rules are skipped: the
 * seed is the user's own tree, protected paths included. With `requireTester` the tester
 * entry is a required file too.
 */
export async function checkPolicy(childDir: string, parentDir: string | null, caps: PolicyCaps, protectedPaths: readonly string[] = [], requireTester = false): Promise<PolicyResult> {
  const walked = await walkTree(childDir, caps);
  if (!walked.ok) return fail(walked.breach.code, walked.breach.path, walked.breach.message);
  const { files } = walked;
  for (const file of files) {
    const segments = file.path.split("/");
    const name = segments[segments.length - 1] ?? file.path;
    if (segments.includes("node_modules")) return fail("forbidden_file", file.path, `"${file.path}": node_modules has no place in an agent tree`);
    if (FORBIDDEN_NAMES.has(name)) return fail("forbidden_file", file.path, `"${file.path}": installer files are not allowed`);
    if (FORBIDDEN_EXTENSIONS.some((ext) => name.endsWith(ext))) {
      return fail("forbidden_file", file.path, `"${file.path}": only ES module .ts sources are compiled (no ${FORBIDDEN_EXTENSIONS.join(", ")})`);
    }
    if (name === "package.json") {
      const hook = await installHook(join(childDir, file.path));
      if (hook !== null) return fail("install_hook", file.path, `"${file.path}" declares the install hook "${hook}"`);
    }
  }
  const present = new Set(files.map((f) => f.path));
  const missing = [...REQUIRED_FILES, ...(requireTester ? [TESTER_FILE] : [])].filter((f) => !present.has(f));
  if (missing.length > 0) return fail("missing_required_file", missing[0] ?? null, `missing required file(s): ${missing.join(", ")}`);
  if (parentDir === null) return { ok: true, files };
  const parentFiles = await walkParent(parentDir, caps);
  if (protectedPaths.length > 0) {
    const touched = await protectedChange(childDir, files, parentDir, parentFiles, protectedPaths);
    if (touched !== null) {
      return fail("protected_path", touched.path, `"${touched.path}": the run policy protects ${touched.pattern}; the rewrite ${touched.change} it`);
    }
  }
  if (await sameTree(childDir, files, parentDir, parentFiles)) {
    return fail("empty_diff", null, "the rewrite changed nothing: the tree is identical to its parent");
  }
  return { ok: true, files };
}

async function walkParent(parentDir: string, caps: PolicyCaps): Promise<TreeFile[]> {
  const parent = await walkTree(parentDir, caps);
  if (!parent.ok) {
    throw new EvolveError("invalid_options", `the parent tree ${parentDir} breaks policy itself: ${parent.breach.message}`);
  }
  return parent.files;
}

/** The first protected path the child adds, modifies or deletes, with the pattern that protects it. */
async function protectedChange(
  childDir: string,
  childFiles: readonly TreeFile[],
  parentDir: string,
  parentFiles: readonly TreeFile[],
  patterns: readonly string[],
): Promise<{ path: string; pattern: string; change: "adds" | "modifies" | "deletes" } | null> {
  const matchOf = firstMatchOf(patterns);
  const before = new Map(parentFiles.map((f) => [f.path, f]));
  for (const file of childFiles) {
    const pattern = matchOf(file.path);
    if (pattern === null) continue;
    const old = before.get(file.path);
    if (old === undefined) return { path: file.path, pattern, change: "adds" };
    if (!sameFile(childDir, parentDir, file, old)) return { path: file.path, pattern, change: "modifies" };
  }
  const now = new Set(childFiles.map((f) => f.path));
  for (const file of parentFiles) {
    const pattern = now.has(file.path) ? null : matchOf(file.path);
    if (pattern !== null) return { path: file.path, pattern, change: "deletes" };
  }
  return null;
}

function sameFile(childDir: string, parentDir: string, child: TreeFile, parent: TreeFile): boolean {
  if (child.bytes !== parent.bytes) return false;
  const rel = posix.normalize(child.path);
  // Synchronous, as the walk is (tree-walk.ts): small files, read in the check worker.
  return readFileSync(join(childDir, rel)).equals(readFileSync(join(parentDir, rel)));
}

/** The part of an agent's package.json an installer would run; the rest is not looked at. */
const PackageScripts = z.object({ scripts: z.record(z.string(), z.unknown()) });

async function installHook(path: string): Promise<string | null> {
  // Not JSON, or no scripts: no installer would run anything (and the build never contains it).
  const read = await readJson(PackageScripts, path);
  if (!read.ok) return null;
  return INSTALL_HOOKS.find((hook) => Object.hasOwn(read.value.scripts, hook)) ?? null;
}

async function sameTree(childDir: string, childFiles: readonly TreeFile[], parentDir: string, parentFiles: readonly TreeFile[]): Promise<boolean> {
  if (parentFiles.length !== childFiles.length) return false;
  for (const [i, file] of childFiles.entries()) {
    const other = parentFiles[i];
    if (other === undefined || other.path !== file.path || other.bytes !== file.bytes) return false;
  }
  for (const [i, file] of childFiles.entries()) {
    if (!sameFile(childDir, parentDir, file, parentFiles[i] as TreeFile)) return false;
  }
  return true;
}
