import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { WorkspaceTree } from "../../../harness/src/kernel/index.js";
import { extractTree } from "./tree-extract.js";

const b64 = (text: string | Buffer): string => Buffer.from(text).toString("base64");

async function extract(tree: WorkspaceTree, caps = {}) {
  const parent = await mkdtemp(join(tmpdir(), "evolve-tree-"));
  const dest = join(parent, "dest");
  const result = await extractTree(tree, dest, caps);
  const written = await readdir(parent, { recursive: true });
  return { result, dest, written };
}

describe("a runner's tree message", () => {
  it("writes its files and folders, an empty folder included", async () => {
    const { result, dest, written } = await extract({ dirs: ["task", "empty"], files: [{ path: "task/index.ts", base64: b64("export {};\n") }] });
    expect(result).toEqual({ ok: true, files: 1, bytes: 11 });
    expect(await readFile(join(dest, "task/index.ts"), "utf8")).toBe("export {};\n");
    expect(written.sort()).toEqual(["dest", "dest/empty", "dest/task", "dest/task/index.ts"]);
  });

  const file = (path: string, text = "x") => ({ path, base64: b64(text) });
  const hostile: [string, WorkspaceTree, RegExp][] = [
    ["a ../ escape", { dirs: [], files: [file("../escape.txt")] }, /escapes the destination/],
    ["an absolute path", { dirs: [], files: [file("/tmp/evil.txt")] }, /absolute path/],
    ["an escaping folder", { dirs: ["a/../../x"], files: [] }, /escapes the destination/],
    ["a backslash path", { dirs: [], files: [file("a\\..\\b")] }, /backslash/],
    ["a NUL byte", { dirs: [], files: [file("a\0b")] }, /NUL byte/],
    ["an empty path", { dirs: [], files: [file("")] }, /root is not a directory/],
    ["a path of dots and slashes", { dirs: [], files: [file("./")] }, /root is not a directory/],
    ["a duplicate file", { dirs: [], files: [file("a", "1"), file("a", "2")] }, /duplicate entry/],
    ["a file and a folder of one name", { dirs: ["a"], files: [file("a")] }, /duplicate entry/],
    ["a file where a folder is implied", { dirs: ["a/b"], files: [file("a")] }, /a file where an earlier entry has a folder/],
    ["a path below a file", { dirs: [], files: [file("a"), file("a/b")] }, /below a file/],
    ["text that is not base64", { dirs: [], files: [{ path: "a", base64: "not base64!" }] }, /not base64/],
    // Node's decoder would read each of these as some bytes; only the canonical text is taken.
    ["base64 with a line break in it", { dirs: [], files: [{ path: "a", base64: `${b64("abc")}\n${b64("def")}` }] }, /not base64/],
    ["base64 without its padding", { dirs: [], files: [{ path: "a", base64: "QQ" }] }, /not base64/],
    ["base64 whose last group has stray bits", { dirs: [], files: [{ path: "a", base64: "QR==" }] }, /not base64/],
    ["URL-safe base64", { dirs: [], files: [{ path: "a", base64: "-_-_" }] }, /not base64/],
    ["text past the file cap that is not base64", { dirs: [], files: [{ path: "big", base64: `${"*".repeat(1_500_000)}` }] }, /not base64/],
    ["a file over the cap", { dirs: [], files: [file("big", "x".repeat(1024 * 1024 + 1))] }, /^file agent\/big is 1048577 bytes, over the 1048576-byte cap$/],
    ["too many entries", { dirs: Array.from({ length: 2_001 }, (_, i) => `d${i}`), files: [] }, /more than 2000 entries/],
  ];
  for (const [what, tree, reason] of hostile) {
    it(`refuses ${what} and writes nothing`, async () => {
      const { result, written } = await extract(tree);
      expect(result.ok).toBe(false);
      expect(result.ok ? "" : result.reason).toMatch(reason);
      expect(written).toEqual([]);
    });
  }

  it("refuses files whose total passes the cap, before decoding them all", async () => {
    const files = Array.from({ length: 5 }, (_, i) => ({ path: `f${i}`, base64: b64(Buffer.alloc(900 * 1024)) }));
    const { result, written } = await extract({ dirs: [], files }, { maxTotalBytes: 2 * 1024 * 1024 });
    expect(result.ok ? "" : result.reason).toMatch(/more than 2097152 bytes in all/);
    expect(written).toEqual([]);
  });
});
