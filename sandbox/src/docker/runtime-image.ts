/**
 * The offline runtime image: no registry pull, ever. It is built FROM scratch out of the
 * host's own Node binary and the shared libraries it links, the trusted runner, and the
 * read-only toolchain agents may import (typescript, ts-morph) with V8 code caches and
 * ES-module entries that make it load faster (toolchain-code-cache.ts, toolchain-esm-entry.ts). Its tag is a content hash of those inputs, so it
 * is rebuilt only when one of them changes.
 *
 * A user may name a base image instead (e.g. node:20-slim from their registry); the
 * runner and toolchain are then layered on top of it and its own `node` is used.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, copyFile, cp, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { SANDBOX_UID } from "../port/index.js";
import { PACKAGE_ROOT } from "../../../harness/src/kernel/index.js";
import { makeToolchainCodeCache } from "./toolchain-code-cache.js";
import { addEsmEntries } from "./toolchain-esm-entry.js";

/** Where node sits inside the image built from scratch. */
export const IMAGE_NODE = "/usr/local/bin/node";
export const RUNNER_MAIN = "/opt/evolve/runner/main.js";
const FORMAT_VERSION = "7";
export const TOOLCHAIN_ROOTS: readonly string[] = ["typescript", "ts-morph"];

const repoRoot = PACKAGE_ROOT;

export interface ImageInputs {
  baseImage: string | null;
  nodeBinary: string;
  libraries: string[];
  runnerSources: string[];
  /** Each toolchain package by name and the host folder it is copied from. */
  toolchainPackages: { name: string; dir: string }[];
}

/** Shared libraries the binary links, as absolute paths (from `ldd`). */
export function linkedLibraries(binary: string): string[] {
  const output = execFileSync("ldd", [binary], { encoding: "utf8" });
  const paths = new Set<string>();
  for (const line of output.split("\n")) {
    const arrow = /=>\s*(\/\S+)/.exec(line);
    const bare = /^\s*(\/\S+)\s+\(/.exec(line);
    const path = arrow?.[1] ?? bare?.[1];
    if (path) paths.add(path);
  }
  return [...paths].sort();
}

/**
 * The folder of package `name` as Node would find it from `fromDir`: the nearest
 * node_modules/<name> up the tree. In a checkout that is the repository's node_modules; in
 * an installed evolve the packages sit beside it (hoisted) or, when versions clash, inside it.
 */
export async function findPackageDir(name: string, fromDir: string): Promise<string> {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if ((await stat(join(candidate, "package.json")).catch(() => null))?.isFile()) return candidate;
    if (dirname(dir) === dir) throw new Error(`package ${name} not found from ${fromDir} (run npm install)`);
  }
}

/** The toolchain packages and everything they depend on, where the harness finds them. */
export async function toolchainClosure(fromDir = repoRoot): Promise<{ name: string; dir: string }[]> {
  const found = new Map<string, string>();
  const queue = TOOLCHAIN_ROOTS.map((name) => ({ name, from: fromDir }));
  while (queue.length > 0) {
    const { name, from } = queue.shift()!;
    if (found.has(name)) continue;
    const dir = await findPackageDir(name, from);
    found.set(name, dir);
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    // A dependency is looked up from its dependent, as Node does (a nested copy first).
    queue.push(...Object.keys(manifest.dependencies ?? {}).map((dependency) => ({ name: dependency, from: dir })));
  }
  return [...found].map(([name, dir]) => ({ name, dir })).sort((a, b) => a.name.localeCompare(b.name));
}

export async function collectImageInputs(baseImage: string | null): Promise<ImageInputs> {
  const runnerDir = join(repoRoot, "sandbox/runner");
  const runnerSources = (await readdir(runnerDir)).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")).sort();
  return {
    baseImage,
    nodeBinary: process.execPath,
    libraries: baseImage ? [] : linkedLibraries(process.execPath),
    runnerSources: runnerSources.map((f) => join(runnerDir, f)),
    toolchainPackages: await toolchainClosure(),
  };
}

/** Content hash of the inputs. Large system binaries are keyed by path, size and mtime. */
export async function hashImageInputs(inputs: ImageInputs): Promise<string> {
  const hash = createHash("sha256").update(`format ${FORMAT_VERSION}\nbase ${inputs.baseImage ?? "scratch"}\n`);
  const binaries = inputs.baseImage ? [] : [inputs.nodeBinary, ...inputs.libraries];
  for (const file of binaries) {
    const info = await stat(file);
    hash.update(`bin ${file} ${info.size} ${info.mtimeMs}\n`);
  }
  // Sources by their path inside the repository, so every clone gets the same tag.
  for (const file of inputs.runnerSources) hash.update(`src ${relative(repoRoot, file)}\n`).update(await readFile(file));
  for (const { name, dir } of inputs.toolchainPackages) {
    hash.update(`pkg ${name}\n`).update(await readFile(join(dir, "package.json")));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The runner as the image has it: each source transpiled on its own to an ES module in
 * `outDir`, with the package.json that makes them modules. The in-memory test engine
 * (in-memory-stage.ts) stages the runner with this too, so both run the same JS.
 */
export async function transpileRunner(runnerSources: readonly string[], outDir: string): Promise<void> {
  // The compiler loads only when the runner is staged: it is slow to import.
  const ts = (await import("typescript")).default;
  await mkdir(outDir, { recursive: true });
  for (const file of runnerSources) {
    const out = ts.transpileModule(await readFile(file, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
      fileName: file,
    });
    await writeFile(join(outDir, file.split("/").pop()!.replace(/\.ts$/, ".js")), out.outputText);
  }
  await writeFile(join(outDir, "package.json"), '{ "type": "module" }\n');
}

/** Lay out the build context (Dockerfile + rootfs/) in a fresh temp folder. */
export async function stageBuildContext(inputs: ImageInputs, hash: string): Promise<string> {
  const context = await mkdtemp(join(tmpdir(), "evolve-image-"));
  const rootfs = join(context, "rootfs");
  try {
    if (!inputs.baseImage) {
      for (const file of [...inputs.libraries]) {
        await mkdir(join(rootfs, dirname(file)), { recursive: true });
        await copyFile(file, join(rootfs, file));
      }
      await mkdir(join(rootfs, dirname(IMAGE_NODE)), { recursive: true });
      await copyFile(inputs.nodeBinary, join(rootfs, IMAGE_NODE));
    }
    await transpileRunner(inputs.runnerSources, join(rootfs, dirname(RUNNER_MAIN)));
    for (const { name, dir } of inputs.toolchainPackages) {
      // The harness's own packages (trusted), by the platform's copy; links are left out, as a
      // link to a host path would dangle in the image. Agent trees use the archive's strict copyTree.
      await cp(dir, join(rootfs, "node_modules", name), { recursive: true, filter: async (path) => !(await lstat(path)).isSymbolicLink() });
    }
    // The host's Node lists the names, for a base image too: a name one Node lists and another
    // would not changes which names an import offers, never what they are.
    const entries = await addEsmEntries(inputs.nodeBinary, Object.fromEntries(TOOLCHAIN_ROOTS.map((name) => [name, join(rootfs, "node_modules", name)])));
    if (!entries.ok) process.stderr.write(`evolve: the runtime image is built without ES-module entries for its toolchain (imports load as before, slower): ${entries.reason}\n`);
    if (!inputs.baseImage) {
      // A base image brings its own Node, whose V8 would refuse caches made by the host's.
      const made = await makeToolchainCodeCache(inputs.nodeBinary, rootfs, join(rootfs, dirname(RUNNER_MAIN)));
      if (!made.ok) process.stderr.write(`evolve: the runtime image is built without its toolchain code cache (containers start as before, slower): ${made.reason}\n`);
    }
    // 1777 like any distribution's /tmp: Docker copies this mode onto the tmpfs mounted there.
    await mkdir(join(rootfs, "tmp"), { recursive: true });
    await chmod(join(rootfs, "tmp"), 0o1777);
    await mkdir(join(context, "work"), { recursive: true });
    const node = inputs.baseImage ? "node" : IMAGE_NODE;
    const dockerfile = [
      `FROM ${inputs.baseImage ?? "scratch"}`,
      "COPY rootfs/ /",
      `COPY --chown=${SANDBOX_UID}:${SANDBOX_UID} work/ /work/`,
      `USER ${SANDBOX_UID}:${SANDBOX_UID}`,
      "WORKDIR /work",
      "ENV HOME=/tmp NODE_ENV=production",
      `LABEL dev.evolve.runtime-hash=${hash}`,
      `CMD ["${node}", "${RUNNER_MAIN}"]`,
    ].join("\n");
    await writeFile(join(context, "Dockerfile"), dockerfile + "\n");
    return context;
  } catch (error) {
    await rm(context, { recursive: true, force: true });
    throw error;
  }
}

/** Command that starts the runner in an image built by this module. */
export function runnerCommand(baseImage: string | null): string[] {
  return [baseImage ? "node" : IMAGE_NODE, RUNNER_MAIN];
}

/**
 * The inputs, tag and build context of the runtime image, computed once and shared by every
 * engine that needs the image: each builds from the same context, and each checks the same
 * content-hash tag. `dispose` removes the staged context.
 */
export class RuntimeImageSource {
  private described: Promise<{ inputs: ImageInputs; hash: string; tag: string; command: string[] }> | null = null;
  private staged: Promise<string> | null = null;

  constructor(readonly baseImage: string | null) {}

  /** The image's tag (`evolve-runtime:<hash>`) and the command that starts the runner in it. */
  async describe(): Promise<{ tag: string; command: string[] }> {
    const { tag, command } = await this.inputs();
    return { tag, command };
  }

  /** The build context folder, staged on first use. */
  async context(): Promise<string> {
    this.staged ??= this.inputs().then(({ inputs, hash }) => stageBuildContext(inputs, hash));
    return this.staged;
  }

  async dispose(): Promise<void> {
    const staged = this.staged;
    this.staged = null;
    const dir = staged === null ? null : await staged.catch(() => null);
    if (dir !== null) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private inputs(): Promise<{ inputs: ImageInputs; hash: string; tag: string; command: string[] }> {
    this.described ??= (async () => {
      const inputs = await collectImageInputs(this.baseImage);
      const hash = await hashImageInputs(inputs);
      return { inputs, hash, tag: `evolve-runtime:${hash}`, command: runnerCommand(this.baseImage) };
    })();
    return this.described;
  }
}
