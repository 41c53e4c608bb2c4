/**
 * A Mac or Windows laptop is not a dead end. The default runtime image is built from the
 * host's own node (Linux only); elsewhere `evolve run` and `evolve doctor` say so in one line
 * and what to set, and with EVOLVE_BASE_IMAGE the run goes through on that image. The
 * platform is faked at the one place the harness reads it (tests/support/fake-platform.mjs
 * answers only reads from sandbox/src/docker/host-platform.ts).
 */
import { execFile, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeBaseImage } from "../../sandbox/src/index.js";
import { RuntimeImageSource } from "../../sandbox/src/docker/runtime-image.js";
import { offlineEnv } from "../support/evolve-process.js";
import { testEngine } from "../support/test-engine.js";

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin/evolve.js");
const FAKE = join(ROOT, "tests/support/fake-platform.mjs");

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "evolve-other-hosts-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** `evolve ARGS` as on `platform`, with `env` on top of an offline environment. */
async function evolveOn(platform: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const base = offlineEnv();
  delete base["EVOLVE_BASE_IMAGE"];
  const options = { cwd: work, env: { ...base, ...env, EVOLVE_TEST_PLATFORM: platform, NODE_OPTIONS: `--import ${FAKE}` }, timeout: 400_000, maxBuffer: 8 * 1024 * 1024 };
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], options);
    return { code: 0, stdout, stderr, ms: Date.now() - started };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, ms: Date.now() - started };
  }
}

/** Every source file of the harness and the sandbox. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`) : /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith(".test.ts") ? [`${dir}/${e.name}`] : [],
  );
}

describe("the host's platform", () => {
  it("is read in one place", () => {
    const readers = [...sources("harness/src"), ...sources("sandbox/src"), ...sources("bin")].filter((f) => /process\.platform\b/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(readers).toEqual(["sandbox/src/docker/host-platform.ts"]);
  });

  it("decides the runtime image: the host's node on Linux, a named base image anywhere", () => {
    expect(runtimeBaseImage({}, "linux")).toBeNull();
    expect(runtimeBaseImage({ EVOLVE_BASE_IMAGE: "node:20-slim" }, "darwin")).toBe("node:20-slim");
    expect(runtimeBaseImage({ EVOLVE_BASE_IMAGE: "node:20-slim" }, "linux")).toBe("node:20-slim");
    expect(() => runtimeBaseImage({}, "darwin")).toThrow(/this host runs macOS \(darwin\): the default runtime image is built from the host's own node, which only works on Linux/);
    try {
      runtimeBaseImage({}, "win32");
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/this host runs Windows \(win32\)/);
      expect((error as { hint?: string }).hint).toMatch(/\$env:EVOLVE_BASE_IMAGE="node:20-slim"; npx evolve run/);
    }
  });
});

describe("on a Mac", () => {
  it("evolve run says in one line what to set, before anything starts", async () => {
    const result = await evolveOn("darwin", ["run", "--generations", "0", "--out", "runs"]);
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(20_000);
    expect(result.stderr.trim().split("\n")).toEqual([
      "evolve run: this host runs macOS (darwin): the default runtime image is built from the host's own node, which only works on Linux",
      "  what to do: set EVOLVE_BASE_IMAGE=node:20-slim (any image with node on its PATH; your Docker engine pulls it once), e.g. EVOLVE_BASE_IMAGE=node:20-slim npx evolve run",
    ]);
    expect(await readdir(join(work, "runs")).catch(() => [])).toEqual([]);
  });

  it("evolve doctor names the problem and the fix", async () => {
    const result = await evolveOn("darwin", ["doctor"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL runtime image {2}this host runs macOS \(darwin\)/m);
    expect(result.stdout).toMatch(/^ {20}fix: set EVOLVE_BASE_IMAGE=node:20-slim/m);
  });

  it("with EVOLVE_BASE_IMAGE a run goes through on that image", async () => {
    // Any image with node on its PATH will do; this checkout's own runtime image has one and needs no registry.
    const t = await testEngine();
    const base = t.image.tag;
    await t.engine.close();
    const layered = (await new RuntimeImageSource(base).describe()).tag;
    const existed = spawnSync("docker", ["image", "inspect", layered], { stdio: "ignore" }).status === 0;
    try {
      const result = await evolveOn("darwin", ["run", "--generations", "0", "--workers", "1", "--out", "based"], { EVOLVE_BASE_IMAGE: base });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/g0000 \(seed\) valid: visible 0\.\d{4}/);
      expect(result.stdout).toMatch(/^report: .*report\.html$/m);
    } finally {
      // The layered image is this test's own: removed unless it was there before.
      if (!existed) spawnSync("docker", ["rmi", layered], { stdio: "ignore" });
    }
  }, 420_000);
});
