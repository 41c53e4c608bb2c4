/**
 * The shared compiler shows each tree at one place (TREE_ROOT) and keeps the files a tree has
 * unchanged from the tree before (tree-compiler.ts). These cases hold it to that: after any
 * sequence of trees it answers as a compiler that never saw another one; a file gone from the
 * tree is gone for the compiler; and no folder of the host shows in what it says.
 */
import { cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TreeCompiler } from "../../harness/src/validation/tree-compiler.js";
import { BASE_DIR } from "./corpus.js";

let scratch: string;
let counter = 0;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "evolve-tree-reuse-"));
});

afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A copy of the base agent in a new folder, with `files` written over it and `remove` deleted. */
async function tree(files: Record<string, string>, remove: string[] = []): Promise<string> {
  const dir = join(scratch, `tree-${counter++}`);
  await cp(BASE_DIR, dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
  for (const path of remove) await rm(join(dir, path));
  return dir;
}

async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** What a check says, emitted JavaScript included. */
async function outcome(compiler: TreeCompiler, dir: string): Promise<unknown> {
  const result = compiler.check(dir, await filesOf(dir));
  if (result.ok) return { ok: true, files: [...result.files].sort((a, b) => a.path.localeCompare(b.path)) };
  return { ok: false, ...result.failure };
}

const USES_EXTRA = 'import { extra } from "./extra.js";\nexport const used: number = extra + 1;\n';
const EXTRA = "export const extra: number = 41;\n";

describe("one compiler, many trees", () => {
  it("answers after any sequence of trees as a compiler that saw none of them", async () => {
    const trees = [
      await tree({}),
      await tree({ "task/describe.ts": 'import type { Json } from "@evolve/contract";\nexport function describeInput(input: Json): number {\n  return 1;\n}\n' }),
      await tree({ "meta/index.ts": "export const improve = 42;\n" }),
      await tree({ "task/extra.ts": EXTRA, "task/use.ts": USES_EXTRA }),
      await tree({ "task/use.ts": USES_EXTRA }),
      // The same path as tree 3's clean file, now breaking the import rule: the rule's walk is kept per text, not per path.
      await tree({ "task/extra.ts": 'import { readFileSync } from "node:fs";\nexport const extra: number = readFileSync.length;\n', "task/use.ts": USES_EXTRA }),
    ];
    // Each tree alone, in a compiler of its own (no store: nothing carried between them).
    const alone: unknown[] = [];
    for (const dir of trees) alone.push(await outcome(new TreeCompiler(undefined, null), dir));
    expect(alone.map((o) => (o as { ok: boolean; code?: string }).code ?? "ok")).toEqual(["ok", "type_error", "signature_mismatch", "ok", "unresolved_import", "forbidden_import"]);
    // The same trees through one compiler, in an order that revisits each after others.
    const shared = new TreeCompiler(undefined, null);
    for (const i of [0, 3, 5, 4, 3, 5, 1, 0, 2, 4, 1, 2, 0]) expect(await outcome(shared, trees[i]!)).toEqual(alone[i]);
  }, 120_000);

  it("forgets a file the next tree does not have, and a file's old text", async () => {
    const compiler = new TreeCompiler(undefined, null);
    expect(await outcome(compiler, await tree({ "task/extra.ts": EXTRA, "task/use.ts": USES_EXTRA }))).toMatchObject({ ok: true });
    expect(await outcome(compiler, await tree({ "task/use.ts": USES_EXTRA }))).toMatchObject({ ok: false, code: "unresolved_import", file: "task/use.ts" });
    expect(await outcome(compiler, await tree({ "task/extra.ts": 'export const extra: string = "x";\n', "task/use.ts": USES_EXTRA }))).toMatchObject({
      ok: false,
      code: "type_error",
      file: "task/use.ts",
    });
  }, 60_000);

  it("never names the tree's folder on the host in what it says", async () => {
    const compiler = new TreeCompiler(undefined, null);
    // TypeScript names a module that is not one by its whole path.
    const dir = await tree({ "task/script.ts": "const local = 1;\n", "task/use.ts": 'import { local } from "./script.js";\nexport const used: number = local;\n' });
    const said = JSON.stringify(await outcome(compiler, dir));
    expect(said).toContain("task/script.ts' is not a module");
    expect(said).not.toContain(scratch);
  }, 60_000);
});
