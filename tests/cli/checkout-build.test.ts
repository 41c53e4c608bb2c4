/**
 * A checkout's CLI runs the harness compiled into .evolve-cache/harness/<key>/
 * (scripts/checkout-build.mjs): on a copy of the checkout's sources, a changed source must
 * give a new build that the next command runs, an unchanged one must reuse the build, and a
 * build that cannot be made must fall back to the TypeScript with one line saying why. The
 * commands that read the archive run from the build's inspect bundle, the others from its
 * module-per-module copy.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binFlags, cacheTaken } from "../support/inspect-bundle.js";

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");

let copy: string;

beforeAll(async () => {
  // A space and a "#" in the path: the compiled copy is imported by file URL, which must encode them.
  copy = await mkdtemp(join(tmpdir(), "evolve checkout #"));
  for (const path of ["bin", "scripts", "harness/src", "sandbox/src", "sandbox/runner", "package.json"]) await cp(join(ROOT, path), join(copy, path), { recursive: true });
  await mkdir(join(copy, ".git"));
  await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"));
});
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

const help = () => exec(process.execPath, [join(copy, "bin/evolve.js"), "--help"], { cwd: copy, timeout: 60_000 });
/** One build, made now: the tests before have edited sources and replaced built files. */
const fromScratch = async () => {
  await rm(join(copy, ".evolve-cache"), { recursive: true, force: true });
  await help();
};
const builds = async (): Promise<string[]> => ((await readdir(join(copy, ".evolve-cache/harness")).catch(() => [])) as string[]).sort();

describe("the checkout's compiled copy", () => {
  it("is built at the first command, reused while the sources are unchanged, and built again when one changes", async () => {
    const first = await help();
    expect(first.stdout).toContain("evolve: run self-rewriting agents safely in Docker containers");
    expect(first.stderr).toBe("");
    const [built] = await builds();
    expect(await builds()).toHaveLength(1);
    const main = join(copy, ".evolve-cache/harness", built!, "harness/src/cli/main.js");
    const mtime = (await stat(main)).mtimeMs;

    await help();
    expect(await builds()).toEqual([built]);
    expect((await stat(main)).mtimeMs).toBe(mtime);

    const source = join(copy, "harness/src/cli/main.ts");
    await writeFile(source, (await readFile(source, "utf8")).replace("run self-rewriting agents safely", "run self-rewriting agents, edited"));
    const edited = await help();
    expect(edited.stdout).toContain("evolve: run self-rewriting agents, edited in Docker containers");
    expect(await builds()).toHaveLength(2);
  }, 120_000);

  it("serves the commands that read the archive from its inspect bundle, every other command from the module copy", async () => {
    await help();
    const newest = async (): Promise<string> => {
      const dirs = await Promise.all((await builds()).map(async (b) => ({ b, at: (await stat(join(copy, ".evolve-cache/harness", b))).mtimeMs })));
      return join(copy, ".evolve-cache/harness", dirs.sort((x, y) => y.at - x.at)[0]!.b);
    };
    const dir = await newest();
    expect(JSON.parse(await readFile(join(dir, "inspect/commands.json"), "utf8"))).toEqual(["ls", "show", "tree", "diff", "lineage", "pending", "approve", "reject", "cat"]);
    // Each entry, replaced by one that names itself, shows which copy a command ran from.
    const stand = (which: string) => `async function runCli(argv) { console.log("${which} " + argv[0]); }\n`;
    await writeFile(join(dir, "harness/src/cli/main.js"), `export ${stand("module copy")}`);
    await writeFile(join(dir, "inspect/main.cjs"), `${stand("inspect bundle")}exports.runCli = runCli;\n`);
    await rm(join(dir, "inspect/main.cjs.v8-cache"));
    const ran = async (command: string) => (await exec(process.execPath, [join(copy, "bin/evolve.js"), command], { cwd: copy, timeout: 60_000 })).stdout.trim();
    for (const command of ["ls", "show", "tree", "diff", "lineage", "pending", "approve", "reject", "cat", "--help"]) expect(await ran(command)).toBe(`inspect bundle ${command}`);
    for (const command of ["run", "resume", "check", "watch", "report", "replay", "doctor", "clean", "new", "no-such-command"]) expect(await ran(command)).toBe(`module copy ${command}`);
    expect(await newest()).toBe(dir);
  }, 120_000);

  it("bundles zod with its English messages only, set to parse without compiling before any schema is built, and node:crypto loaded at its first call", async () => {
    await fromScratch();
    const [built] = await builds();
    const bundle = await readFile(join(copy, ".evolve-cache/harness", built!, "inspect/main.cjs"), "utf8");
    expect(bundle).toContain("node_modules/zod/v4/core/schemas.js\n");
    expect(bundle).toContain("node_modules/zod/v4/locales/en.js\n");
    expect(bundle).not.toContain("node_modules/zod/v4/locales/fr.js\n");
    const jitless = bundle.indexOf("config({ jitless: true })");
    expect(jitless).toBeGreaterThan(bundle.indexOf("node_modules/zod/v4/core/schemas.js\n"));
    expect(jitless).toBeLessThan(bundle.indexOf("// harness/src/"));
    // node:crypto is required only inside the stand-ins that call it, never as the bundle starts.
    const requires = bundle.match(/.{0,7}require\("node:crypto"\)/g) ?? [];
    expect(requires.length).toBeGreaterThan(0);
    for (const call of requires) expect(call).toBe('return require("node:crypto")');
  }, 120_000);

  it("makes the bundle's code cache, which V8 takes under bin/evolve.js's flags and refuses under others", async () => {
    await fromScratch();
    const [built] = await builds();
    const dir = join(copy, ".evolve-cache/harness", built!);
    const taken = (flags: string[]) => cacheTaken(copy, dir, flags);
    expect(await taken(await binFlags(copy))).toBe(true);
    // `node bin/evolve.js` (no flags) still runs the bundle: V8 compiles its source instead.
    expect(await taken([])).toBe(false);
    const command = [...(await binFlags(copy)), join(copy, "bin/evolve.js"), "ls", "--out", join(copy, "no-runs")];
    const ls = () => exec(process.execPath, command, { cwd: copy, timeout: 60_000 });
    expect((await ls()).stdout).toContain("no runs under");
    // A cache cut short (a disk that filled up) is refused as a whole, and the command still runs.
    const cache = join(dir, "inspect/main.cjs.v8-cache");
    await writeFile(cache, (await readFile(cache)).subarray(0, 100_000));
    expect(await taken(await binFlags(copy))).toBe(false);
    expect((await ls()).stdout).toContain("no runs under");
  }, 120_000);

  it("runs the TypeScript, saying why in one line, when the build cannot be written", async () => {
    // A file where the cache folder should be (a read-only mode would not stop root).
    await rm(join(copy, ".evolve-cache"), { recursive: true, force: true });
    await writeFile(join(copy, ".evolve-cache"), "not a folder\n");
    const source = join(copy, "harness/src/cli/main.ts");
    await writeFile(source, (await readFile(source, "utf8")).replace("agents, edited in", "agents, edited again in"));
    const fallback = await help();
    expect(fallback.stdout).toContain("evolve: run self-rewriting agents, edited again in Docker containers");
    expect(fallback.stderr).toMatch(/^evolve: running the TypeScript through tsx \(the compiled copy could not be built: .+\)\n$/);
    expect(existsSync(join(copy, ".evolve-cache"))).toBe(true);
  }, 120_000);
});
