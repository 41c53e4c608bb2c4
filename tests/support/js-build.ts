/**
 * Writes a tiny agent build (already-emitted JS) for tests of the runner and evaluation:
 * the files go into containers only, never into the host's module loader.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const OK_META = `export async function improve(request, ctx) { return { summary: "nothing", changedFiles: [] }; }\n`;

/** A build dir with task/index.js and meta/index.js (defaults for the one not given). */
export async function writeJsBuild(files: { task?: string; meta?: string; extra?: Record<string, string> }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "evolve-build-"));
  const all: Record<string, string> = {
    "package.json": '{ "type": "module" }\n',
    "task/index.js": files.task ?? `export async function solve(input) { return input; }\n`,
    "meta/index.js": files.meta ?? OK_META,
    ...(files.extra ?? {}),
  };
  for (const [path, content] of Object.entries(all)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}
