/**
 * The verified-file memory on disk (harness/src/validation/verified-store.ts): what one
 * compiler proved clean, a compiler of another worker reuses, under the same toolchain only,
 * from a folder no one else can write only. A stored file's JavaScript is used as it is, so
 * the tests mark stored entries and look for the mark in what a second compiler emits: there
 * only if it read the store.
 */
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultToolchainPaths } from "../../harness/src/validation/toolchain-paths.js";
import { TreeCompiler } from "../../harness/src/validation/tree-compiler.js";
import { verifiedStoreRoot } from "../../harness/src/validation/verified-store.js";
import { BASE_DIR } from "./corpus.js";

const MARK = "// read from the store";
let scratch: string;
let files: string[];

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path, base)));
    else out.push(relative(base, path));
  }
  return out;
}

/** The emitted JavaScript of BASE_DIR by a fresh compiler over `root`, joined. */
function emitted(root: string | null, paths = defaultToolchainPaths()): string {
  const check = new TreeCompiler(paths, root).check(BASE_DIR, files);
  if (!check.ok) throw new Error(`base tree failed: ${check.failure.message}`);
  return check.files.map((f) => f.text).join("\n");
}

/** Rewrites every stored entry under `root` to carry MARK as its JavaScript. */
async function markEntries(root: string, text = JSON.stringify({ js: MARK })): Promise<number> {
  let n = 0;
  for (const namespace of await readdir(root)) {
    for (const entry of await readdir(join(root, namespace))) {
      await writeFile(join(root, namespace, entry), text);
      n++;
    }
  }
  return n;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "evolve-verified-store-"));
  files = await listFiles(BASE_DIR);
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the verified-file memory on disk", () => {
  it("gives a second compiler what the first proved, and a compiler of another toolchain nothing", async () => {
    const root = join(scratch, "shared");
    const first = emitted(root);
    expect(first).not.toContain(MARK);
    expect(await markEntries(root)).toBeGreaterThan(0);
    expect(emitted(root)).toContain(MARK);
    // Another contract is another toolchain: its namespace is new, its compile real.
    const contractFile = join(scratch, "contract.d.ts");
    await writeFile(contractFile, `${await readFile(defaultToolchainPaths().contractFile, "utf8")}\n// another contract\n`);
    expect(emitted(root, { ...defaultToolchainPaths(), contractFile })).toBe(first);
  }, 60_000);

  it("compiles again past a corrupt entry, and stores the file again", async () => {
    const root = join(scratch, "corrupt");
    const first = emitted(root);
    await markEntries(root, "{ not json");
    expect(emitted(root)).toBe(first);
    await markEntries(root, JSON.stringify({ js: 42 }));
    expect(emitted(root)).toBe(first);
  }, 60_000);

  it("is not used when others can write its folder, nor when the folder cannot be made", async () => {
    const root = join(scratch, "open");
    const first = emitted(root);
    await markEntries(root);
    await chmod(root, 0o777);
    expect(emitted(root)).toBe(first);
    const blocked = join(scratch, "a-file");
    await writeFile(blocked, "");
    expect(emitted(join(blocked, "verified"))).toBe(first);
  }, 60_000);

  it("lives under EVOLVE_CACHE_DIR, else the user's cache folder, and is off with EVOLVE_CACHE_DIR=off", () => {
    expect(verifiedStoreRoot({ EVOLVE_CACHE_DIR: "/x" })).toBe("/x/verified");
    expect(verifiedStoreRoot({ EVOLVE_CACHE_DIR: "off" })).toBeNull();
    expect(verifiedStoreRoot({ XDG_CACHE_HOME: "/c" })).toBe("/c/evolve/verified");
    expect(verifiedStoreRoot({ EVOLVE_CACHE_DIR: "relative/dir" })).toBe(join(process.cwd(), "relative/dir/verified"));
  });
});
