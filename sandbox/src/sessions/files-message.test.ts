import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesMessage } from "./files-message.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evolve-files-message-"));
  await mkdir(join(dir, "meta/deep"), { recursive: true });
  await mkdir(join(dir, "empty"));
  await writeFile(join(dir, "index.js"), "export {};\n");
  await writeFile(join(dir, "meta/a.js"), "a\n");
  await writeFile(join(dir, "meta/deep/b.js"), Buffer.from([0, 255, 1]));
  await writeFile(join(dir, "z.js"), "");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a folder as one files message", () => {
  it("carries every file, its bytes in base64, whatever order the reads finish in", async () => {
    const message = await filesMessage("build", dir);
    expect(message.type).toBe("files");
    expect(message.root).toBe("build");
    const decoded = Object.fromEntries(message.files.map((f) => [f.path, Buffer.from(f.base64, "base64")]));
    expect(decoded).toEqual({ "index.js": Buffer.from("export {};\n"), "meta/a.js": Buffer.from("a\n"), "meta/deep/b.js": Buffer.from([0, 255, 1]), "z.js": Buffer.alloc(0) });
    // Read at once, the files still come in the order the folders list them: the same message twice.
    const again = await filesMessage("build", dir);
    expect(again.files.map((f) => f.path)).toEqual(message.files.map((f) => f.path));
  });
});
