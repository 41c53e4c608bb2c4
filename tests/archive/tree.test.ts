import { createHash } from "node:crypto";
import { mkdir, symlink, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  applyPatch,
  diffDirectories,
  hashDirectory,
  isSafeRelativePath,
  readOwnTree,
  readTree,
  snapshotHash,
  writeTree,
} from "../../harness/src/archive/index.js";
import { createRng } from "../../harness/src/selection/index.js";
import { randomTree, tempDir } from "./fixtures.js";

describe("snapshot hash", () => {
  it("does not depend on insertion order", () => {
    const rng = createRng(11);
    for (let i = 0; i < 20; i++) {
      const t = randomTree(rng, 8);
      const shuffled = new Map([...t].sort(() => (rng.next() < 0.5 ? -1 : 1)).reverse());
      expect(snapshotHash(shuffled)).toBe(snapshotHash(t));
    }
  });

  it("follows the documented encoding (so archived hashes stay valid)", () => {
    // Computed independently: path, NUL, byte length, NUL, bytes; paths in byte order.
    const t = new Map([["task/index.ts", "export const é = 1;\n"], ["meta/index.ts", ""]]);
    const h = createHash("sha256");
    h.update("meta/index.ts\u00000\u0000");
    h.update("task/index.ts\u000021\u0000");
    h.update(Buffer.from("export const é = 1;\n", "utf8"));
    expect(snapshotHash(t)).toBe(h.digest("hex"));
  });

  it("changes with a path, a byte, or a boundary moved between path and content", () => {
    const base = snapshotHash(new Map([["a", "bc"]]));
    expect(snapshotHash(new Map([["b", "bc"]]))).not.toBe(base);
    expect(snapshotHash(new Map([["a", "bd"]]))).not.toBe(base);
    expect(snapshotHash(new Map([["ab", "c"]]))).not.toBe(base);
    expect(snapshotHash(new Map([["a", "b"], ["c", ""]]))).not.toBe(snapshotHash(new Map([["a", "b\0c"]])));
  });

  it("of a directory equals the hash of the tree written into it", async () => {
    const rng = createRng(12);
    const t = randomTree(rng, 10);
    const dir = await tempDir();
    await writeTree(dir, t);
    expect(await hashDirectory(dir)).toBe(snapshotHash(t));
    expect(new Map([...(await readOwnTree(dir))].sort())).toEqual(new Map([...t].sort()));
  });
});

describe("reading trees", () => {
  it("refuses links and non-UTF-8 files", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "ok.ts"), "x");
    await symlink("/etc/passwd", join(dir, "link"));
    expect(await readTree(dir)).toMatchObject({ ok: false, reason: expect.stringMatching(/link: not a regular file or directory/) });
    const dir2 = await tempDir();
    await mkdir(join(dir2, "sub"));
    await writeFile(join(dir2, "sub", "bin"), Buffer.from([0xff, 0xfe, 0x00]));
    expect(await readTree(dir2)).toMatchObject({ ok: false, reason: expect.stringMatching(/not valid UTF-8/) });
    // The harness's own trees (snapshots) that do not read are a corrupt archive: an error.
    await expect(readOwnTree(dir2)).rejects.toMatchObject({ code: "archive_corrupt" });
  });

  it("stops reading a folder too big to be an agent tree, before reading its contents", async () => {
    const many = await tempDir();
    await Promise.all(Array.from({ length: 4_001 }, (_, i) => writeFile(join(many, `f${i}.ts`), "")));
    expect(await readTree(many)).toMatchObject({ ok: false, reason: expect.stringMatching(/more than 4000 files; not an agent tree/) });
    const big = await tempDir();
    await writeFile(join(big, "huge.ts"), "");
    await truncate(join(big, "huge.ts"), 33 * 1024 * 1024); // sparse: costs no disk
    expect(await readTree(big)).toMatchObject({ ok: false, reason: expect.stringMatching(/more than 32 MiB of files; not an agent tree/) });
  });

  it("knows which relative paths are safe", () => {
    for (const p of ["a", "a/b.ts", ".hidden/x"]) expect(isSafeRelativePath(p)).toBe(true);
    for (const p of ["", "/etc", "../x", "a/../b", "a//b", "a/./b", "a\\b", "a\0"]) expect(isSafeRelativePath(p)).toBe(false);
  });
});

describe("diffDirectories", () => {
  it("gives the patch, changes and hash a record needs", async () => {
    const rng = createRng(21);
    const parent = randomTree(rng, 6);
    const child = new Map(parent).set("task/new.ts", "export const y = 2;\n");
    const [pd, cd] = [await tempDir(), await tempDir()];
    await writeTree(pd, parent);
    await writeTree(cd, child);
    const d = await diffDirectories(pd, cd);
    if (!d.ok) throw new Error(d.reason);
    expect(d.snapshotHash).toBe(snapshotHash(child));
    expect(d.changes).toEqual([{ path: "task/new.ts", change: "added", additions: 1, deletions: 0 }]);
    const applied = applyPatch(parent, d.patch);
    expect(applied.ok && snapshotHash(applied.tree)).toBe(snapshotHash(child));
    const seed = await diffDirectories(null, pd);
    expect(seed.ok && seed.changes.every((c) => c.change === "added")).toBe(true);
  });
});
