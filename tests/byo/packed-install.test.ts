/**
 * evolve as a package: `npm pack`, the tarball installed into an empty folder, and `npx evolve`
 * there runs the built-in default and a task and agent of one's own from another folder.
 * The registry is asked only for evolve's dependencies (npm's cache usually has them).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binFlags, cacheTaken } from "../support/inspect-bundle.js";
import { runEvolve } from "./cli-process.js";

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");

let home: string;
let app: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "evolve-packed-"));
  app = join(home, "app");
  await mkdir(app);
  const { stdout } = await exec("npm", ["pack", "--silent", "--pack-destination", home], { cwd: ROOT, timeout: 120_000 });
  const tarball = join(home, stdout.trim().split("\n").at(-1)!);
  await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", tarball], { cwd: app, timeout: 300_000 });
}, 420_000);
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("the packed tarball, installed in an empty folder", () => {
  it("ships what a user needs and nothing of the repository's tests", async () => {
    const installed = join(app, "node_modules", "evolve");
    expect((await readdir(installed)).sort()).toEqual(
      ["README.md", "SECURITY.md", "bin", "dist", "harness", "package.json", "sandbox", "seed-agent", "tasks", "templates"].sort(),
    );
    const files = await readdir(installed, { recursive: true });
    expect(files.filter((f) => f.endsWith(".test.ts"))).toEqual([]);
    // The CLI it runs is compiled JavaScript (scripts/build-package.mjs): module for module, and the inspect commands bundled.
    expect(files).toContain(join("dist", "harness", "src", "cli", "main.js"));
    expect(files).toContain(join("dist", "harness", "src", "validation", "check-worker-entry.mjs"));
    expect(files).toContain(join("dist", "inspect", "main.cjs"));
    // Its code cache, made where the package was packed, is taken where it is installed.
    expect(await cacheTaken(installed, join(installed, "dist"), await binFlags(installed))).toBe(true);
    expect(files.filter((f) => f.startsWith("dist") && f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.includes(join("report", "page")))).toEqual([]);
  });

  it("npx evolve run --generations 2: the built-in default, archived in the folder it runs in", async () => {
    const { stdout } = await exec("npx", ["evolve", "run", "--generations", "2"], { cwd: app, timeout: 300_000 });
    expect(stdout).toContain("task email-validation, 2 generations");
    expect(stdout).toMatch(/finished: 2\/2 children/);
    expect(stdout).toContain(`archive: ${join(app, "generations")}/run-`);
    const runs = (await readdir(join(app, "generations"))).filter((f) => f.startsWith("run-"));
    expect(runs).toHaveLength(1);
    // The commands that read the archive run from the inspect bundle (dist/inspect/main.cjs).
    const ls = await exec("npx", ["evolve", "ls"], { cwd: app, timeout: 60_000 });
    expect(ls.stdout).toContain(runs[0]);
    const show = await exec("npx", ["evolve", "show", runs[0]!, "best"], { cwd: app, timeout: 60_000 });
    expect(show.stdout).toMatch(/^g\d{4}  valid/);
  });

  it("evolve run --task ./my-task --agent ./my-agent works from another folder", async () => {
    const bin = join(app, "node_modules", "evolve", "bin", "evolve.js");
    expect((await runEvolve(bin, ["new", "task", "my-task"], app)).code).toBe(0);
    expect((await runEvolve(bin, ["new", "agent", "my-agent", "--blank"], app)).code).toBe(0);
    const elsewhere = join(home, "elsewhere");
    await mkdir(elsewhere);
    const run = await runEvolve(bin, ["run", "--task", "../app/my-task", "--agent", "../app/my-agent", "--generations", "1", "--workers", "1"], elsewhere);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/finished: 1\/1 children/);
    expect(await readdir(join(elsewhere, "generations"))).toHaveLength(1);
  });
});
