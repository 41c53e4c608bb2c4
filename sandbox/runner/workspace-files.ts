/**
 * The meta agent's file tools, confined to the agent tree. Paths are relative and
 * `/`-separated; absolute paths, `..` segments and links are refused, so a tool call can
 * never touch anything outside AGENT_DIR (the extractor re-checks on the host anyway).
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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

/*
 * Synchronous file calls throughout: the meta agent reads its whole tree (a few dozen small
 * files) at the start of every generation, and each await on the thread pool cost more than
 * the call itself (a read with its link checks was ~6 of them).
 */
function refuseLinks(absolute: string): void {
  // Check every existing component below AGENT_DIR: a link anywhere could lead outside.
  const parts = relative(AGENT_DIR, absolute).split(sep);
  let current = AGENT_DIR;
  for (const part of parts) {
    current = join(current, part);
    let stat;
    try {
      stat = lstatSync(current);
    } catch {
      return; // nothing there (or not a folder): the call itself says what is wrong
    }
    if (stat.isSymbolicLink()) throw new Error(`refusing to follow a link: ${relative(AGENT_DIR, current)}`);
  }
}

function listFiles(dir: string, prefix: string, out: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true });
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) listFiles(join(dir, entry.name), rel, out);
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
        listFiles(AGENT_DIR, "", out);
        return out.sort();
      }),
    read: (path: string) =>
      tool("read", path, async () => {
        const absolute = resolveInside(path);
        refuseLinks(absolute);
        return readFileSync(absolute, "utf8");
      }),
    write: (path: string, content: string) =>
      tool("write", path, async () => {
        if (typeof content !== "string") throw new Error("content must be a string");
        const absolute = resolveInside(path);
        refuseLinks(absolute);
        mkdirSync(dirname(absolute), { recursive: true });
        writeFileSync(absolute, content, "utf8");
      }),
    replace: (path: string, search: string, replacement: string) =>
      tool("replace", path, async () => {
        const absolute = resolveInside(path);
        refuseLinks(absolute);
        const text = readFileSync(absolute, "utf8");
        const first = text.indexOf(search);
        if (search.length === 0 || first < 0) throw new Error(`search text not found in ${path}`);
        if (text.indexOf(search, first + 1) >= 0) throw new Error(`search text occurs more than once in ${path}`);
        writeFileSync(absolute, text.slice(0, first) + replacement + text.slice(first + search.length), "utf8");
      }),
    delete: (path: string) =>
      tool("delete", path, async () => {
        const absolute = resolveInside(path);
        refuseLinks(absolute);
        rmSync(absolute, { force: false });
      }),
  };
}
