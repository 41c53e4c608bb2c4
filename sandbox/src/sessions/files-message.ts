/** A host folder (trusted: the harness's own build or an archived snapshot) as one `files` message for the runner. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FilesMessage } from "../../../harness/src/kernel/index.js";

export async function filesMessage(root: FilesMessage["root"], dir: string): Promise<FilesMessage> {
  const files: FilesMessage["files"] = [];
  const walk = async (absolute: string, relative: string): Promise<void> => {
    for (const entry of await readdir(absolute, { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(join(absolute, entry.name), rel);
      else if (entry.isFile()) files.push({ path: rel, base64: (await readFile(join(absolute, entry.name))).toString("base64") });
    }
  };
  await walk(dir, "");
  return { type: "files", root, files };
}
