/**
 * JS source (for containers only) of `walk(needles)`: every regular file under / except
 * /proc, /sys and /dev is read in full and searched for each needle; sockets are listed.
 * Needles are built from pieces in the caller, so the probe's own file never matches.
 */
export const WALK_SOURCE = `function walk(needles) {
  const out = { files: 0, bytes: 0, hits: [], sockets: [], errors: 0 };
  const buffers = needles.map((n) => Buffer.from(n));
  const chunk = Buffer.alloc(1 << 20);
  const visit = (dir) => {
    let entries;
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { out.errors++; return; }
    for (const e of entries) {
      const p = dir === "/" ? "/" + e.name : dir + "/" + e.name;
      if (p === "/proc" || p === "/sys" || p === "/dev") continue;
      if (e.isSocket()) { out.sockets.push(p); continue; }
      if (e.isDirectory()) { visit(p); continue; }
      if (!e.isFile()) continue;
      let fd;
      try { fd = fs.openSync(p, "r"); } catch { out.errors++; continue; }
      try {
        out.files++; let tail = Buffer.alloc(0); const found = new Set();
        for (;;) {
          const n = fs.readSync(fd, chunk, 0, chunk.length, null);
          if (n <= 0) break;
          out.bytes += n;
          const view = Buffer.concat([tail, chunk.subarray(0, n)]);
          buffers.forEach((b, i) => { if (!found.has(i) && view.indexOf(b) >= 0) { found.add(i); out.hits.push({ path: p, needle: needles[i] }); } });
          tail = Buffer.from(view.subarray(Math.max(0, view.length - 64)));
        }
      } catch { out.errors++; } finally { fs.closeSync(fd); }
    }
  };
  visit("/");
  return out;
}`;
