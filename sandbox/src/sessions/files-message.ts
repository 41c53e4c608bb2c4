/** A host folder (trusted: the harness's own build or an archived snapshot) as one `files` message for the runner. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FilesMessage } from "../../../harness/src/kernel/index.js";

/**
 * The files are read at once, not one after the other: each read waits its turn on libuv's
 * thread pool, and read in a row some 40 of them (an agent's build) took several milliseconds
 * before every container start. A trusted tree is an agent's, capped at the extractor's entries.
 */
export async function filesMessage(root: FilesMessage["root"], dir: string): Promise<FilesMessage> {
  const walk = async (absolute: string, relative: string): Promise<FilesMessage["files"]> => {
    const read = (await readdir(absolute, { withFileTypes: true })).map(async (entry) => {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return walk(join(absolute, entry.name), rel);
      return entry.isFile() ? [{ path: rel, base64: (await readFile(join(absolute, entry.name))).toString("base64") }] : [];
    });
    return (await Promise.all(read)).flat();
  };
  return { type: "files", root, files: await walk(dir, "") };
}
