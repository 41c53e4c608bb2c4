/** Random trees and temp folders for the archive tests (records come from tests/support/records.ts). */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Rng } from "../../harness/src/selection/index.js";

/** A fresh temporary folder. */
export async function tempDir(prefix = "evolve-archive-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

const WORDS = ["const", "let", "x", "=", "1;", "return", "{", "}", "// note", "", "  ", "if (a)", "\t", "é", "🙂", "\r"];

/** Random text over a small vocabulary so diffs see many equal and repeated lines. */
export function randomText(rng: Rng, maxLines: number): string {
  const n = rng.nextInt(maxLines + 1);
  let text = "";
  for (let i = 0; i < n; i++) {
    text += Array.from({ length: 1 + rng.nextInt(3) }, () => WORDS[rng.nextInt(WORDS.length)]).join(" ");
    text += "\n";
  }
  // A third of files end without a newline.
  if (text.length > 0 && rng.nextInt(3) === 0) text = text.slice(0, -1);
  return text;
}

/** A random tree of up to `maxFiles` files under a few folders. */
export function randomTree(rng: Rng, maxFiles: number): Map<string, string> {
  const tree = new Map<string, string>();
  const n = rng.nextInt(maxFiles + 1);
  for (let i = 0; i < n; i++) {
    const dir = ["", "task/", "meta/", "meta/tools/"][rng.nextInt(4)] ?? "";
    tree.set(`${dir}f${rng.nextInt(12)}.ts`, randomText(rng, 30));
  }
  return tree;
}

/** A random edit of a tree: some files changed line-wise, some deleted, some added. */
export function mutateTree(rng: Rng, tree: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map(tree);
  for (const [path, text] of tree) {
    const roll = rng.nextInt(6);
    if (roll === 0) out.delete(path);
    else if (roll <= 2) {
      const lines = text.split("\n");
      for (let k = rng.nextInt(4); k >= 0; k--) {
        const at = rng.nextInt(lines.length + 1);
        if (rng.nextInt(2) === 0) lines.splice(at, 1);
        else lines.splice(at, 0, randomText(rng, 2).replace(/\n$/, ""));
      }
      out.set(path, lines.join("\n"));
    }
  }
  if (rng.nextInt(2) === 0) out.set(`new/f${rng.nextInt(100)}.ts`, randomText(rng, 10));
  return out;
}
