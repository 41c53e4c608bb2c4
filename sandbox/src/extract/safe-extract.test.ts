import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { buildTar } from "../../../tests/support/tar-builder.js";
import type { TarSpecEntry } from "../../../tests/support/tar-builder.js";
import { extractSafely } from "./safe-extract.js";

async function extract(entries: TarSpecEntry[], caps = {}) {
  const parent = await mkdtemp(join(tmpdir(), "evolve-extract-"));
  const dest = join(parent, "dest");
  const result = await extractSafely(Readable.from([buildTar(entries)]), dest, "agent", caps);
  const written = await readdir(parent, { recursive: true });
  return { result, dest, parent, written };
}

describe("safe extractor", () => {
  it("extracts regular files and directories, dropping the root component", async () => {
    const { result, dest } = await extract([
      { name: "agent/", type: "directory" },
      { name: "agent/task/", type: "directory" },
      { name: "agent/task/index.ts", content: "export {};\n" },
    ]);
    expect(result).toEqual({ ok: true, files: 1, bytes: 11 });
    expect(await readFile(join(dest, "task/index.ts"), "utf8")).toBe("export {};\n");
  });

  const hostile: [string, TarSpecEntry[], RegExp][] = [
    ["a symlink to /etc", [{ name: "agent/etc", type: "symlink", linkName: "/etc" }], /symbolic link refused/],
    ["a hard link", [{ name: "agent/a", content: "x" }, { name: "agent/b", type: "hardlink", linkName: "agent/a" }], /hard link refused/],
    ["a ../ escape", [{ name: "agent/../escape.txt", content: "x" }], /escapes the destination/],
    ["an absolute path", [{ name: "/tmp/evil.txt", content: "x" }], /absolute path/],
    ["an entry outside the root", [{ name: "other/x.txt", content: "x" }], /outside agent/],
    ["a fifo", [{ name: "agent/pipe", type: "fifo" }], /type '6' refused/],
    ["a duplicate entry", [{ name: "agent/a", content: "1" }, { name: "agent/a", content: "2" }], /duplicate entry/],
    ["a file over the cap", [{ name: "agent/big.bin", content: Buffer.alloc(2 * 1024 * 1024) }], /over the 1048576-byte cap/],
    ["a 10 GB declared file", [{ name: "agent/sparse.bin", declaredSize: 10 * 1024 ** 3 }], /over the .*cap/],
    ["a file where a folder was", [{ name: "agent/a/b", content: "x" }, { name: "agent/a", content: "y" }], /a file where an earlier entry has a folder: a/],
  ];

  for (const [what, entries, reason] of hostile) {
    it(`rejects ${what} and writes nothing`, async () => {
      const { result, written } = await extract(entries);
      expect(result.ok).toBe(false);
      expect(result.ok ? "" : result.reason).toMatch(reason);
      expect(written).toEqual([]);
    });
  }

  it("rejects 100k entries without writing", async () => {
    const entries: TarSpecEntry[] = [];
    for (let i = 0; i < 100_000; i++) entries.push({ name: `agent/f${i}`, content: "" });
    const { result, written } = await extract(entries);
    expect(result.ok ? "" : result.reason).toMatch(/more than 2000 entries|larger than/);
    expect(written).toEqual([]);
  });

  it("rejects an archive whose total passes the cap", async () => {
    const entries: TarSpecEntry[] = [];
    for (let i = 0; i < 5; i++) entries.push({ name: `agent/f${i}`, content: Buffer.alloc(900 * 1024) });
    const { result, written } = await extract(entries, { maxTotalBytes: 2 * 1024 * 1024 });
    expect(result.ok).toBe(false);
    expect(written).toEqual([]);
  });

  it("rejects a corrupt header", async () => {
    const tar = buildTar([{ name: "agent/a", content: "x" }]);
    tar[10] = (tar[10] ?? 0) ^ 0xff;
    const parent = await mkdtemp(join(tmpdir(), "evolve-extract-"));
    const result = await extractSafely(Readable.from([tar]), join(parent, "d"), "agent");
    expect(result.ok ? "" : result.reason).toMatch(/corrupt tar header/);
  });
});
