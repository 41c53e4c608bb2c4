/**
 * The meta agent's file tools, confined to the agent tree. Paths are relative and
 * `/`-separated; absolute paths, `..` segments and links are refused, so a tool call can
 * never touch anything outside AGENT_DIR (the extractor re-checks on the host anyway).
 */
import { lstat, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { AGENT_DIR } from "./work-dirs.js";
import type { ToolMessage } from "./protocol.js";

type ToolEvent = Omit<ToolMessage, "type">;

function resolveInside(path: string): string {
  if (typeof path !== "string" || path.length === 0) throw new Error("path must be a non-empty string");
  if (path.startsWith("/") || path.includes("\\")) throw new Error(`path must be relative with '/' separators: ${path}`);
  const segments = path.split("/");
  if (segments.some((s) => s === ".." || s === "" || s === ".")) throw new Error(`path must not contain '..', '.' or empty segments: ${path}`);
  return join(AGENT_DIR, ...segments);
}

async function refuseLinks(absolute: string): Promise<void> {
  // Check every existing component below AGENT_DIR: a link anywhere could lead outside.
  const parts = relative(AGENT_DIR, absolute).split(sep);
  let current = AGENT_DIR;
  for (const part of parts) {
    current = join(current, part);
    const stat = await lstat(current).catch(() => null);
    if (stat === null) return;
    if (stat.isSymbolicLink()) throw new Error(`refusing to follow a link: ${relative(AGENT_DIR, current)}`);
  }
}

async function listFiles(dir: string, prefix: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await listFiles(join(dir, entry.name), rel, out);
    else if (entry.isFile()) out.push(rel);
  }
}

export function createWorkspaceFiles(report: (event: ToolEvent) => void) {
  async function tool<T>(name: ToolEvent["name"], path: string | null, action: () => Promise<T>): Promise<T> {
    try {
      const value = await action();
      report({ name, path, ok: true, error: null });
      return value;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      report({ name, path, ok: false, error: message.slice(0, 500) });
      throw error instanceof Error ? error : new Error(message);
    }
  }
  return {
    list: () =>
      tool("list", null, async () => {
        const out: string[] = [];
        await listFiles(AGENT_DIR, "", out);
        return out.sort();
      }),
    read: (path: string) =>
      tool("read", path, async () => {
        const absolute = resolveInside(path);
        await refuseLinks(absolute);
        return readFile(absolute, "utf8");
      }),
    write: (path: string, content: string) =>
      tool("write", path, async () => {
        if (typeof content !== "string") throw new Error("content must be a string");
        const absolute = resolveInside(path);
        await refuseLinks(absolute);
        await mkdir(dirname(absolute), { recursive: true });
        await writeFile(absolute, content, "utf8");
      }),
    replace: (path: string, search: string, replacement: string) =>
      tool("replace", path, async () => {
        const absolute = resolveInside(path);
        await refuseLinks(absolute);
        const text = await readFile(absolute, "utf8");
        const first = text.indexOf(search);
        if (search.length === 0 || first < 0) throw new Error(`search text not found in ${path}`);
        if (text.indexOf(search, first + 1) >= 0) throw new Error(`search text occurs more than once in ${path}`);
        await writeFile(absolute, text.slice(0, first) + replacement + text.slice(first + search.length), "utf8");
      }),
    delete: (path: string) =>
      tool("delete", path, async () => {
        const absolute = resolveInside(path);
        await refuseLinks(absolute);
        await rm(absolute, { force: false });
      }),
  };
}
