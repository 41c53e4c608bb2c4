/**
 * A workspace tree that came in a runner message (sandbox/runner/tree-snapshot.ts) instead of
 * Docker's archive: hostile data all the same. It becomes the entries a tar would have given
 * and meets the same rules and caps (safe-extract.ts) before a byte is written.
 */
import type { WorkspaceTree } from "../../../harness/src/kernel/index.js";
import { DEFAULT_EXTRACT_CAPS } from "../port/index.js";
import type { ExtractCaps, ExtractResult } from "../port/index.js";
import { planEntries, writePlan } from "./safe-extract.js";
import type { TarEntry } from "./tar-reader.js";

/** Strict base64 (Node's decoder skips what it does not know, so a forged text is refused here). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Writes `tree` into `hostDir` (created; must not hold anything yet), or refuses it whole. */
export async function extractTree(tree: WorkspaceTree, hostDir: string, caps: Partial<ExtractCaps> = {}): Promise<ExtractResult> {
  const limits: ExtractCaps = { ...DEFAULT_EXTRACT_CAPS, ...caps };
  if (tree.dirs.length + tree.files.length > limits.maxEntries) return { ok: false, reason: `more than ${limits.maxEntries} entries` };
  const entries: TarEntry[] = tree.dirs.map((name) => ({ name, type: "directory", typeflag: "5", size: 0, linkName: "", data: Buffer.alloc(0) }));
  let encoded = 0;
  for (const file of tree.files) {
    // Checked before decoding, so a forged size costs no memory: base64 is 4 characters per 3 bytes.
    encoded += file.base64.length;
    if (file.base64.length > Math.ceil(limits.maxFileBytes / 3) * 4) return { ok: false, reason: `file ${file.path} is over the ${limits.maxFileBytes}-byte cap` };
    if (encoded > Math.ceil(limits.maxTotalBytes / 3) * 4 + 4 * tree.files.length) return { ok: false, reason: `more than ${limits.maxTotalBytes} bytes in all` };
    if (!BASE64.test(file.base64)) return { ok: false, reason: `file ${file.path} is not base64` };
    const data = Buffer.from(file.base64, "base64");
    entries.push({ name: file.path, type: "file", typeflag: "0", size: data.length, linkName: "", data });
  }
  // The same rules as a tar's entries: no absolute, `..` or backslash paths, no duplicates, nothing below a file, the caps.
  const planned = planEntries(entries, null, limits);
  if (!planned.ok) return planned;
  return writePlan(planned.plan, planned.bytes, hostDir);
}
