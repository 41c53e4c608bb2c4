/**
 * A strict reader for tar archives that come out of containers, i.e. hostile data.
 * Written by hand (rather than using an extractor library) so that every entry type and
 * header field is checked by us before anything touches the disk.
 */

export type TarEntryType = "file" | "directory" | "symlink" | "hardlink" | "other";

export interface TarEntry {
  name: string;
  type: TarEntryType;
  /** The raw typeflag, for error messages about "other" entries. */
  typeflag: string;
  size: number;
  linkName: string;
  data: Buffer;
}

export type TarParse = { ok: true; entries: TarEntry[] } | { ok: false; reason: string };

const BLOCK = 512;

function readString(block: Buffer, offset: number, length: number): string {
  const slice = block.subarray(offset, offset + length);
  const end = slice.indexOf(0);
  return slice.subarray(0, end < 0 ? slice.length : end).toString("utf8");
}

function readNumber(block: Buffer, offset: number, length: number): number {
  const field = block.subarray(offset, offset + length);
  // GNU base-256 encoding for huge values: the high bit of the first byte is set.
  if ((field[0] ?? 0) & 0x80) {
    let value = 0;
    for (let i = 1; i < field.length; i++) value = value * 256 + (field[i] ?? 0);
    return value;
  }
  const text = readString(block, offset, length).trim();
  return text === "" ? 0 : parseInt(text, 8);
}

function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
  return sum === readNumber(block, 148, 8);
}

/** "len key=value\n" records of a PAX extended header. */
function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space < 0) break;
    const length = parseInt(data.subarray(offset, space).toString("utf8"), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString("utf8");
    const eq = record.indexOf("=");
    if (eq > 0) records.set(record.slice(0, eq), record.slice(eq + 1));
    offset += length;
  }
  return records;
}

function entryType(flag: string): TarEntryType {
  if (flag === "0" || flag === "" || flag === "7") return "file";
  if (flag === "5") return "directory";
  if (flag === "2") return "symlink";
  if (flag === "1") return "hardlink";
  return "other";
}

/** Parse a whole archive; `maxEntries` and `maxFileBytes` stop early on hostile input. */
export function parseTar(archive: Buffer, limits: { maxEntries: number; maxFileBytes: number }): TarParse {
  const entries: TarEntry[] = [];
  let offset = 0;
  let pax = new Map<string, string>();
  let gnuLongName: string | null = null;
  let gnuLongLink: string | null = null;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((b) => b === 0)) break; // end-of-archive marker
    if (!checksumOk(block)) return { ok: false, reason: `corrupt tar header at byte ${offset}` };
    const flag = readString(block, 156, 1);
    const size = pax.has("size") ? Number(pax.get("size")) : readNumber(block, 124, 12);
    if (!Number.isSafeInteger(size) || size < 0) return { ok: false, reason: `invalid entry size at byte ${offset}` };
    const dataStart = offset + BLOCK;
    const isMeta = flag === "x" || flag === "g" || flag === "L" || flag === "K";
    if (!isMeta && entryType(flag) === "file" && size > limits.maxFileBytes) {
      const name = pax.get("path") ?? gnuLongName ?? readString(block, 0, 100);
      return { ok: false, reason: `file ${name} is ${size} bytes, over the ${limits.maxFileBytes}-byte cap` };
    }
    if (dataStart + size > archive.length) return { ok: false, reason: "truncated tar archive" };
    const data = archive.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (flag === "x") {
      pax = parsePax(data);
      continue;
    }
    if (flag === "g") continue;
    if (flag === "L" || flag === "K") {
      const text = data.toString("utf8").replace(/\0+$/, "");
      if (flag === "L") gnuLongName = text;
      else gnuLongLink = text;
      continue;
    }
    const prefix = readString(block, 345, 155);
    const shortName = readString(block, 0, 100);
    const name = pax.get("path") ?? gnuLongName ?? (prefix ? `${prefix}/${shortName}` : shortName);
    const linkName = pax.get("linkpath") ?? gnuLongLink ?? readString(block, 157, 100);
    entries.push({ name, type: entryType(flag), typeflag: flag, size, linkName, data });
    if (entries.length > limits.maxEntries) return { ok: false, reason: `more than ${limits.maxEntries} entries` };
    pax = new Map();
    gnuLongName = null;
    gnuLongLink = null;
  }
  return { ok: true, entries };
}
