import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Validator } from "../../validation/index.js";
import { checkKey, createBuildCache, type BuildCache } from "./build-cache.js";

/** A validator whose "compile" writes one file into the build folder and counts the calls. */
function fakeValidator(): { validator: Validator; compiles: () => number } {
  let compiles = 0;
  const validateStatic: Validator["validateStatic"] = async ({ buildDir }) => {
    compiles++;
    await mkdir(buildDir, { recursive: true });
    await writeFile(join(buildDir, "index.js"), "export {};\n");
    return { ok: true, timings: {} };
  };
  return { validator: { validateStatic } as unknown as Validator, compiles: () => compiles };
}

describe("the build cache", () => {
  let dir: string;
  let cache: BuildCache;
  let compiles: () => number;
  const parent = checkKey("/archive/g0001/snapshot", false);

  /** A build as validation leaves it: a folder of emitted JS in a candidate's scratch folder. */
  async function built(name: string): Promise<string> {
    const buildDir = join(dir, "work", name);
    await mkdir(buildDir, { recursive: true });
    await writeFile(join(buildDir, "index.js"), `// ${name}\n`);
    return buildDir;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "evolve-build-cache-"));
    const fake = fakeValidator();
    compiles = fake.compiles;
    cache = createBuildCache(join(dir, "builds"), fake.validator);
  });
  afterEach(async () => {
    await cache.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("removes a draft's build once its generation is released, with its checks", async () => {
    const at = await cache.adopt("h1", await built("draft1"), "g0005");
    cache.markChecked(parent, "h1");
    expect(cache.checked(parent, "h1", "g0005")).not.toBeNull();
    await cache.release("g0005");
    expect(existsSync(at)).toBe(false);
    expect(cache.checked(parent, "h1")).toBeNull();
    expect(await readdir(join(dir, "builds"))).toEqual([]);
  });

  it("keeps a draft's build that the generation's child took, and the child's own", async () => {
    const kept = await cache.adopt("h1", await built("draft1"), "g0005");
    cache.markChecked(parent, "h1");
    const dropped = await cache.adopt("h2", await built("draft2"), "g0005");
    // The child's tree is its first draft: it takes the draft's checks and build.
    expect(await cache.checked(parent, "h1")).toBe(kept);
    await cache.release("g0005");
    expect(existsSync(kept)).toBe(true);
    expect(existsSync(dropped)).toBe(false);
    expect(await cache.checked(parent, "h1")).toBe(kept);
  });

  it("keeps a build two generations hold until both are released", async () => {
    const at = await cache.adopt("h1", await built("a"), "g0005");
    expect(await cache.adopt("h1", await built("b"), "g0006")).toBe(at);
    await cache.release("g0005");
    expect(existsSync(at)).toBe(true);
    await cache.release("g0006");
    expect(existsSync(at)).toBe(false);
  });

  it("keeps a draft's build that becomes a parent's, without compiling it again", async () => {
    const at = await cache.adopt("h1", await built("draft1"), "g0005");
    expect(await cache.get("/archive/g0005/snapshot", "h1")).toBe(at);
    await cache.release("g0005");
    expect(existsSync(at)).toBe(true);
    expect(compiles()).toBe(0);
  });

  it("gives a tree built again after its removal a folder of its own, and compiles a released one on demand", async () => {
    const first = await cache.adopt("h1", await built("draft1"), "g0005");
    const releasing = cache.release("g0005");
    const second = await cache.adopt("h1", await built("draft1-again"), "g0007");
    await releasing;
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(true);
    await cache.release("g0007");
    const compiled = await cache.get("/archive/g0007/snapshot", "h1");
    expect(existsSync(join(compiled, "index.js"))).toBe(true);
    expect(compiles()).toBe(1);
  });

  it("never removes a build nothing held (a child's, a parent's)", async () => {
    const child = await cache.adopt("h1", await built("child"));
    const parentBuild = await cache.get("/archive/g0001/snapshot", "h0");
    await cache.release("g0005");
    expect(existsSync(child)).toBe(true);
    expect(existsSync(parentBuild)).toBe(true);
  });
});
