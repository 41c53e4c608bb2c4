/**
 * Take a directory out of a container as hostile data: regular files and directories
 * only; no links, no absolute or `..` paths, no duplicates; caps on entries, file size
 * and total bytes. The whole archive is checked before the first byte is written, and
 * files are written without their archived mode bits.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { turnAfter } from "../../../harness/src/kernel/index.js";
import { DEFAULT_EXTRACT_CAPS } from "../port/index.js";
import { parseTar } from "./tar-reader.js";
import type { TarEntry } from "./tar-reader.js";
import type { ExtractCaps, ExtractResult } from "../port/index.js";

/** Read a stream into memory, refusing to hold more than `maxBytes`. */
export async function readCapped(stream: Readable, maxBytes: number): Promise<{ ok: true; data: Buffer } | { ok: false; reason: string }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    total += buffer.length;
    if (total > maxBytes) {
      stream.destroy();
      return { ok: false, reason: `archive is larger than ${maxBytes} bytes` };
    }
    chunks.push(buffer);
  }
  return { ok: true, data: Buffer.concat(chunks) };
}

/** Segments of a safe relative path, or the reason it is not one. */
export function safeSegments(name: string): { ok: true; segments: string[] } | { ok: false; reason: string } {
  if (name.includes("\0")) return { ok: false, reason: `path with a NUL byte: ${JSON.stringify(name)}` };
  if (name.startsWith("/")) return { ok: false, reason: `absolute path: ${name}` };
  const segments = name.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.some((s) => s === "..")) return { ok: false, reason: `path escapes the destination: ${name}` };
  if (segments.some((s) => s.includes("\\"))) return { ok: false, reason: `path with a backslash: ${name}` };
  return { ok: true, segments };
}

interface PlannedEntry {
  segments: string[];
  entry: TarEntry;
}

/**
 * Check every entry of `archive`; `rootName` is the first path component Docker puts on
 * every entry (the basename of the directory taken out), which is stripped.
 */
export function planExtraction(archive: Buffer, rootName: string | null, caps: ExtractCaps): Planned {
  const parsed = parseTar(archive, caps);
  if (!parsed.ok) return parsed;
  return planEntries(parsed.entries, rootName, caps);
}

type Planned = { ok: true; plan: PlannedEntry[]; bytes: number } | { ok: false; reason: string };

/** The rules every entry that comes out of a container meets, whatever carried it (a tar, a runner message). */
export function planEntries(entries: readonly TarEntry[], rootName: string | null, caps: ExtractCaps): Planned {
  if (entries.length > caps.maxEntries) return { ok: false, reason: `more than ${caps.maxEntries} entries` };
  const plan: PlannedEntry[] = [];
  const seen = new Map<string, TarEntry["type"]>();
  /** Every folder an earlier entry lies in: a file there would have to replace a folder. */
  const parents = new Set<string>();
  let bytes = 0;
  for (const entry of entries) {
    if (entry.type === "symlink") return { ok: false, reason: `symbolic link refused: ${entry.name} -> ${entry.linkName}` };
    if (entry.type === "hardlink") return { ok: false, reason: `hard link refused: ${entry.name} -> ${entry.linkName}` };
    if (entry.type === "other") return { ok: false, reason: `entry of type '${entry.typeflag}' refused (only files and directories): ${entry.name}` };
    if (entry.type === "file" && entry.size > caps.maxFileBytes) return { ok: false, reason: `file ${entry.name} is ${entry.size} bytes, over the ${caps.maxFileBytes}-byte cap` };
    const safe = safeSegments(entry.name);
    if (!safe.ok) return safe;
    let segments = safe.segments;
    if (rootName !== null) {
      if (segments[0] !== rootName) return { ok: false, reason: `entry outside ${rootName}/: ${entry.name}` };
      segments = segments.slice(1);
    }
    if (segments.length === 0) {
      if (entry.type !== "directory") return { ok: false, reason: `the root is not a directory` };
      continue;
    }
    const key = segments.join("/");
    if (seen.has(key)) return { ok: false, reason: `duplicate entry: ${key}` };
    // A parent must be a directory entry when present: a file cannot have children.
    for (let i = 1; i < segments.length; i++) {
      if (seen.get(segments.slice(0, i).join("/")) === "file") return { ok: false, reason: `entry below a file: ${key}` };
      parents.add(segments.slice(0, i).join("/"));
    }
    if (entry.type === "file" && parents.has(key)) return { ok: false, reason: `a file where an earlier entry has a folder: ${key}` };
    seen.set(key, entry.type);
    bytes += entry.size;
    if (bytes > caps.maxTotalBytes) return { ok: false, reason: `more than ${caps.maxTotalBytes} bytes in all` };
    plan.push({ segments, entry });
  }
  return { ok: true, plan, bytes };
}

/**
 * Writes a checked plan into `hostDir` (created; must not hold anything yet), without the
 * entries' mode bits. Synchronous: a workspace is a few dozen small files, written in a
 * millisecond or two this way, where one await per call made a 36-file tree take ~26 ms of
 * every draft's path. It lets the event loop take a turn every FILES_PER_TURN entries, so a
 * hostile tree at the caps does not hold it either.
 */
export async function writePlan(plan: readonly PlannedEntry[], bytes: number, hostDir: string): Promise<ExtractResult> {
  mkdirSync(hostDir, { recursive: true });
  let files = 0;
  // Every entry counts towards the turns: a forged tree of folders alone costs as many creations.
  for (const [i, { segments, entry }] of plan.entries()) {
    const target = join(hostDir, ...segments);
    if (entry.type === "directory") {
      mkdirSync(target, { recursive: true, mode: 0o755 });
    } else {
      mkdirSync(join(hostDir, ...segments.slice(0, -1)), { recursive: true, mode: 0o755 });
      writeFileSync(target, entry.data, { mode: 0o644, flag: "wx" });
      files++;
    }
    await turnAfter(i + 1);
  }
  return { ok: true, files, bytes };
}

/** Extract a tar stream into `hostDir` (created; must not hold anything yet). */
export async function extractSafely(stream: Readable, hostDir: string, rootName: string | null, caps: Partial<ExtractCaps> = {}): Promise<ExtractResult> {
  const limits: ExtractCaps = { ...DEFAULT_EXTRACT_CAPS, ...caps };
  // Headers and padding cost at most two blocks per entry beyond the data itself.
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    read = await readCapped(stream, limits.maxTotalBytes + (limits.maxEntries + 2) * 1024 + 10_240);
  } catch (error) {
    return { ok: false, reason: `reading the archive failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!read.ok) return read;
  const planned = planExtraction(read.data, rootName, limits);
  if (!planned.ok) return planned;
  return writePlan(planned.plan, planned.bytes, hostDir);
}
