/**
 * Builds tar archives by hand for tests, including the hostile entries a real packer
 * refuses to write (links, `..` paths, absolute paths, huge declared sizes).
 */
export interface TarSpecEntry {
  name: string;
  type?: "file" | "directory" | "symlink" | "hardlink" | "fifo";
  content?: string | Buffer;
  linkName?: string;
  /** Size written in the header, when it should lie about the content. */
  declaredSize?: number;
}

const TYPEFLAG = { file: "0", directory: "5", symlink: "2", hardlink: "1", fifo: "6" } as const;

function header(entry: TarSpecEntry, size: number): Buffer {
  const block = Buffer.alloc(512);
  block.write(entry.name, 0, 100, "utf8");
  block.write("0000644\0", 100);
  block.write("0001750\0", 108);
  block.write("0001750\0", 116);
  block.write(size.toString(8).padStart(11, "0") + "\0", 124);
  block.write("00000000000\0", 136);
  block.write("        ", 148);
  block.write(TYPEFLAG[entry.type ?? "file"], 156);
  if (entry.linkName) block.write(entry.linkName, 157, 100, "utf8");
  block.write("ustar\0", 257);
  block.write("00", 263);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
  return block;
}

export function buildTar(entries: TarSpecEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const content = entry.content === undefined ? Buffer.alloc(0) : Buffer.from(entry.content);
    parts.push(header(entry, entry.declaredSize ?? content.length));
    if (entry.declaredSize === undefined && content.length > 0) {
      parts.push(content, Buffer.alloc((512 - (content.length % 512)) % 512));
    }
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
