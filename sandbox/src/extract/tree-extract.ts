/**
 * A workspace tree that came in a runner message (sandbox/runner/tree-snapshot.ts) instead of
 * Docker's archive: hostile data all the same. It becomes the entries a tar would have given
 * and meets the same rules and caps (safe-extract.ts) before a byte is written.
 */
import type { WorkspaceTree } from "../../../harness/src/kernel/index.js";
import { DEFAULT_EXTRACT_CAPS } from "../port/index.js";
import type { ExtractCaps, ExtractResult } from "../port/index.js";
import { planEntries, safeSegments, writePlan } from "./safe-extract.js";
import type { TarEntry } from "./tar-reader.js";

/**
 * Strict base64 for a file past a cap, which is refused without being decoded (Node's decoder
 * skips what it does not know, so a forged text is refused here, not read as something else).
 */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A file within the caps is decoded and must encode back to the very text that came: canonical
 * base64, as the runner's Buffer writes it (stricter than BASE64, which lets the unused bits of a
 * last group be anything). The regex over a whole tree's text cost ~3 ms a message; this, ~0.3.
 */
function decodedStrictly(base64: string): Buffer | null {
  const data = Buffer.from(base64, "base64");
  return data.toString("base64") === base64 ? data : null;
}

/**
 * Entries are named as in Docker's archive of /work/agent, so that a refusal reads the same
 * whichever way the tree came out.
 */
const ROOT = "agent";

/** Writes `tree` into `hostDir` (created; must not hold anything yet), or refuses it whole. */
export async function extractTree(tree: WorkspaceTree, hostDir: string, caps: Partial<ExtractCaps> = {}): Promise<ExtractResult> {
  const limits: ExtractCaps = { ...DEFAULT_EXTRACT_CAPS, ...caps };
  if (tree.dirs.length + tree.files.length > limits.maxEntries) return { ok: false, reason: `more than ${limits.maxEntries} entries` };
  const entries: TarEntry[] = [];
  for (const path of tree.dirs) {
    const safe = safeSegments(path);
    if (!safe.ok) return safe;
    entries.push({ name: `${ROOT}/${path}`, type: "directory", typeflag: "5", size: 0, linkName: "", data: Buffer.alloc(0) });
  }
  let total = 0;
  for (const file of tree.files) {
    const safe = safeSegments(file.path);
    if (!safe.ok) return safe;
    // Sized without decoding: a file past a cap is refused below (planEntries) and never decoded.
    const size = Buffer.byteLength(file.base64, "base64");
    total += size;
    const withinCaps = size <= limits.maxFileBytes && total <= limits.maxTotalBytes;
    const data = withinCaps ? decodedStrictly(file.base64) : BASE64.test(file.base64) ? Buffer.alloc(0) : null;
    if (data === null) return { ok: false, reason: `file ${ROOT}/${file.path} is not base64` };
    entries.push({ name: `${ROOT}/${file.path}`, type: "file", typeflag: "0", size, linkName: "", data });
  }
  // The same rules as a tar's entries: no duplicates, nothing below a file, no file where a folder is, the caps.
  const planned = planEntries(entries, ROOT, limits);
  if (!planned.ok) return planned;
  return writePlan(planned.plan, planned.bytes, hostDir);
}
