/**
 * The compiler's V8 code cache (harness/src/validation/compiler-code-cache.ts), in fresh
 * processes as check workers start: the first compiles TypeScript and makes the cache, the
 * next loads from it; a corrupt cache is refused by V8 and made again; a cache folder that
 * others can write, or EVOLVE_CACHE_DIR=off, means no preload at all. The compiler works
 * in every case.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PROBE = join(import.meta.dirname, "compiler-load-probe.ts");
const ROOT = join(import.meta.dirname, "../..");
let scratch: string;

interface ProbeResult {
  load: "from_cache" | "compiled" | "not_preloaded";
  compiledByNode: number;
  errors: number;
}

async function probe(cacheDir: string): Promise<ProbeResult> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", PROBE], {
    cwd: ROOT,
    env: { ...process.env, EVOLVE_CACHE_DIR: cacheDir },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as ProbeResult;
}

async function caches(cacheDir: string): Promise<string[]> {
  return (await readdir(join(cacheDir, "code-cache"))).filter((name) => name.endsWith(".v8"));
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "evolve-code-cache-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the compiler's code cache", () => {
  it("is made by the first process, private to the user, and used by the next; a corrupt one is made again", async () => {
    const dir = join(scratch, "fresh");
    expect(await probe(dir)).toEqual({ load: "compiled", compiledByNode: 0, errors: 1 });
    const [made] = await caches(dir);
    expect(made).toBeDefined();
    const path = join(dir, "code-cache", made!);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await probe(dir)).toEqual({ load: "from_cache", compiledByNode: 0, errors: 1 });
    // V8 refuses what is not its cache for this source and flags; the compiler loads as usual.
    await writeFile(path, Buffer.from("not a V8 code cache ".repeat(64)));
    expect(await probe(dir)).toEqual({ load: "compiled", compiledByNode: 0, errors: 1 });
    expect(await probe(dir)).toEqual({ load: "from_cache", compiledByNode: 0, errors: 1 });
  }, 240_000);

  it("is not used from a folder others can write, nor with EVOLVE_CACHE_DIR=off", async () => {
    const dir = join(scratch, "shared");
    await mkdir(join(dir, "code-cache"), { recursive: true });
    await chmod(join(dir, "code-cache"), 0o777);
    expect(await probe(dir)).toEqual({ load: "not_preloaded", compiledByNode: 1, errors: 1 });
    expect(await caches(dir)).toEqual([]);
    expect(await probe("off")).toEqual({ load: "not_preloaded", compiledByNode: 1, errors: 1 });
  }, 120_000);
});
