/** A host folder (trusted: the harness's own build or an archived snapshot) as one `files` message for the runner. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { turnAfter, type FilesMessage } from "../../../harness/src/kernel/index.js";

/**
 * Read with synchronous calls: some 40 small files (an agent's build) took ~2.7 ms before every
 * container start read one after the other through libuv's thread pool, ~0.5 ms this way, and
 * less CPU. A trusted tree is an agent's, capped at the extractor's entries; the event loop
 * takes a turn every FILES_PER_TURN files.
 */
export async function filesMessage(root: FilesMessage["root"], dir: string): Promise<FilesMessage> {
  const paths: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) paths.push(rel);
    }
  };
  walk("");
  const files: FilesMessage["files"] = [];
  for (const path of paths) {
    files.push({ path, base64: readFileSync(join(dir, path)).toString("base64") });
    await turnAfter(files.length);
  }
  return { type: "files", root, files };
}
