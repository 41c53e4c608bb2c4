/**
 * The in-memory engine's "image" (see in-memory-engine.ts): the trusted runner transpiled
 * exactly as the runtime image transpiles it (runtime-image.ts `transpileRunner`), beside
 * links to the toolchain packages the image copies, staged once per content hash under one
 * temp root. Every sandbox's folder lives below its stage, so an agent's `import "typescript"`
 * resolves as in the image (to /node_modules there, to the stage's node_modules here) and a
 * package outside the toolchain resolves to nothing, as there.
 *
 * Staged once per content, not once per process: a test run starts dozens of processes, and
 * a stage left behind is reused rather than leaked. A stage is written to a temp name and
 * renamed into place, so processes staging at once never see half of one.
 */
import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, posix } from "node:path";
import { WORK_DIR } from "../../runner/protocol.js";
import { addEsmEntries, collectImageInputs, IMAGE_NODE, RUNNER_MAIN, TOOLCHAIN_ROOTS, transpileRunner } from "../docker/index.js";

/** The packages agents import, which get the image's ES-module entries (toolchain-esm-entry.ts). */
const ENTRY_PACKAGES: readonly string[] = TOOLCHAIN_ROOTS;

/** Where the in-memory engine keeps its stages and its sandboxes' folders. */
export const DEFAULT_MEMORY_ROOT = join(tmpdir(), "evolve-memory-engine");

export interface RunnerStage {
  /** `evolve-memory:<hash>`: the only image the engine runs. */
  tag: string;
  /** The runner's folder: what the image's /opt/evolve/runner is here. */
  runnerDir: string;
  /** Sandboxes' folders, one each (below the stage, for module resolution). */
  sandboxesDir: string;
  /** Staged by this call (else found, staged earlier by this or another process). */
  built: boolean;
}

/** The folder of the runner in the image, which the stage's runnerDir stands for. */
const IMAGE_RUNNER_DIR = posix.dirname(RUNNER_MAIN);

/** Stages (or finds) the runner of this checkout under `root`. */
export async function stageRunner(root: string): Promise<RunnerStage> {
  const inputs = await collectImageInputs(null);
  const hash = createHash("sha256").update(`in-memory 2\nnode ${process.version}\n`);
  for (const file of inputs.runnerSources) hash.update(`src ${basename(file)}\n`).update(await readFile(file));
  for (const { name, dir } of inputs.toolchainPackages) hash.update(`pkg ${name} ${dir}\n`);
  const id = hash.digest("hex").slice(0, 16);
  const dir = join(root, id);
  const stage: RunnerStage = { tag: `evolve-memory:${id}`, runnerDir: join(dir, "runner"), sandboxesDir: join(dir, "sandboxes"), built: false };
  if (await isFile(join(stage.runnerDir, "main.js"))) return stage;
  await mkdir(root, { recursive: true });
  const temp = await mkdtemp(join(root, ".staging-"));
  try {
    await transpileRunner(inputs.runnerSources, join(temp, "runner"));
    const withEntries: Record<string, string> = {};
    const realDirs: Record<string, string> = {};
    for (const { name, dir: packageDir } of inputs.toolchainPackages) {
      const staged = join(temp, "node_modules", name);
      if (!ENTRY_PACKAGES.includes(name)) {
        await mkdir(dirname(staged), { recursive: true });
        await symlink(packageDir, staged, "dir");
        continue;
      }
      // A folder of its own, its files linked, so its package.json and entry can be the image's.
      await mkdir(staged, { recursive: true });
      for (const entry of await readdir(packageDir)) if (entry !== "package.json") await symlink(join(packageDir, entry), join(staged, entry));
      withEntries[name] = staged;
      realDirs[name] = packageDir;
    }
    const entries = await addEsmEntries(process.execPath, withEntries, realDirs);
    // As the image: without the entries, imports scan the packages as before.
    if (!entries.ok) for (const [name, staged] of Object.entries(withEntries)) await copyFile(join(realDirs[name]!, "package.json"), join(staged, "package.json"));
    await rename(temp, dir);
    return { ...stage, built: true };
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    // Another process staged the same content first: theirs is as good.
    if (!(await isFile(join(stage.runnerDir, "main.js")))) throw error;
    return stage;
  }
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() === true;
}

/**
 * The host command for an image command: the image's node (or `node` on a base image's PATH)
 * is this process's node with the heap cap, the image's runner folder is the stage's, and
 * paths under /work are the sandbox's work folder. Null when it does not start node: the
 * image has nothing else to run.
 */
export function hostCommand(command: readonly string[], stage: RunnerStage, workDir: string, heapMb: number): string[] | null {
  const [program, ...args] = command;
  if (program !== IMAGE_NODE && program !== "node") return null;
  const mapped = args.map((arg) => {
    if (arg.startsWith(`${IMAGE_RUNNER_DIR}/`)) return join(stage.runnerDir, arg.slice(IMAGE_RUNNER_DIR.length + 1));
    if (arg === WORK_DIR || arg.startsWith(`${WORK_DIR}/`)) return join(workDir, arg.slice(WORK_DIR.length));
    return arg;
  });
  return [process.execPath, `--max-old-space-size=${heapMb}`, ...mapped];
}
