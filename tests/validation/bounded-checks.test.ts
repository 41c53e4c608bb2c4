/**
 * The checks of a candidate run in a worker with a heap cap and a wall clock: type bombs
 * (tests/security/support/type-bombs.ts) become invalid candidates with their own codes,
 * the worker is replaced, and the next candidate is checked as usual. The harness's own
 * failures inside the worker stay errors, never an agent's fault.
 */
import { spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvolveError } from "../../harness/src/kernel/index.js";
import { createValidator, type StaticOutcome, type Validator } from "../../harness/src/validation/index.js";
import { deepNesting, denseDeclarations, expandRecipe, exponentialInstantiation, type TypeBomb } from "../security/support/type-bombs.js";
import { BASE_DIR } from "./corpus.js";

let scratch: string;
let counter = 0;
const open: Validator[] = [];

async function treeWith(bomb: TypeBomb | null): Promise<string> {
  const dir = join(scratch, `tree-${counter++}`);
  await cp(BASE_DIR, dir, { recursive: true });
  for (const file of bomb?.files ?? []) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), expandRecipe(file.parts));
  }
  return dir;
}

function validator(memoryMb: number, timeoutMs: number): Validator {
  const v = createValidator({ limits: { memoryMb, timeoutMs } });
  open.push(v);
  return v;
}

async function check(v: Validator, bomb: TypeBomb | null): Promise<StaticOutcome> {
  return v.validateStatic({ parentDir: null, childDir: await treeWith(bomb), buildDir: join(scratch, `build-${counter++}`) });
}

function verdict(outcome: StaticOutcome): string {
  return outcome.ok ? "ok" : `${outcome.failure.stage}/${outcome.failure.code}`;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "evolve-bounded-checks-"));
});

afterAll(async () => {
  await Promise.all(open.map((v) => v.close()));
  await rm(scratch, { recursive: true, force: true });
});

describe("checks under a memory cap and a wall clock", () => {
  it("stops a candidate at the time limit (compile_timeout), then checks the next one with a fresh worker", async () => {
    // 6 s: a fresh worker's first check is a full check of the seed (~1.3 s, more under load);
    // the bomb needs far longer than that to fill 1 GiB.
    const v = validator(1024, 6_000);
    // The worker's start is timed apart from the bomb: under load it alone took 9 s of wall
    // clock, and a bound over both failed once though the bomb was stopped on time.
    expect(verdict(await check(v, null))).toBe("ok");
    const started = Date.now();
    const bombed = await check(v, exponentialInstantiation);
    expect(verdict(bombed)).toBe("compile/compile_timeout");
    expect(bombed.ok ? "" : bombed.failure.message).toMatch(/time limit of 6 s \(stopped during type-checking; --check-timeout\)/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(verdict(await check(v, null))).toBe("ok");
  });

  it("ends a candidate that exhausts the heap (compile_memory), and the run's checker lives on", async () => {
    const v = validator(256, 300_000);
    const bombed = await check(v, denseDeclarations);
    expect(verdict(bombed)).toBe("compile/compile_memory");
    expect(bombed.ok ? "" : bombed.failure.message).toMatch(/memory limit of 256 MiB \(during type-checking; --check-memory\)/);
    expect(verdict(await check(v, null))).toBe("ok");
  });

  it("records a checker stack overflow as the candidate's compile_crash", async () => {
    const v = validator(512, 60_000);
    const bombed = await check(v, deepNesting);
    expect(verdict(bombed)).toBe("compile/compile_crash");
    expect(bombed.ok ? "" : bombed.failure.message).toMatch(/Maximum call stack size exceeded/);
    expect(verdict(await check(v, null))).toBe("ok");
  });

  it("keeps the harness's own failures errors (a non-empty build folder), with their code", async () => {
    const v = validator(512, 60_000);
    const buildDir = join(scratch, `build-${counter++}`);
    await mkdir(buildDir, { recursive: true });
    await writeFile(join(buildDir, "left-over.js"), "");
    const failed = v.validateStatic({ parentDir: null, childDir: await treeWith(null), buildDir });
    await expect(failed).rejects.toBeInstanceOf(EvolveError);
    await expect(failed).rejects.toMatchObject({ code: "invalid_options", message: expect.stringMatching(/is not empty/) });
  });

  it("lets a command end normally when closing the validator is the last thing it does", () => {
    for (const delayMs of ["0", "1500"]) {
      const child = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "close-validator.ts"), delayMs], { encoding: "utf8", timeout: 60_000 });
      expect({ status: child.status, stdout: child.stdout }, child.stderr).toEqual({ status: 0, stdout: "closed\n" });
    }
  });

  it("refuses a cap too small for the warm compiler before any check", () => {
    expect(() => createValidator({ limits: { memoryMb: 128 } })).toThrow(/at least 256 MiB/);
  });
});
