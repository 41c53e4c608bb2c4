/**
 * The rooms of the two biggest folders (docs/ARCHITECTURE.md): harness/src/evolution and
 * sandbox/src are split into sub-folders by concept. A room reaches another only through its
 * index.ts, and only in the direction the table allows, so the picture a newcomer reads in
 * the READMEs stays true. Also: the sandbox raises only its own and the common error codes.
 */
import { describe, expect, it } from "vitest";
import { CommonErrorCode, SandboxErrorCode } from "../../harness/src/kernel/index.js";
import { sources, specifiers, target, textOf } from "./source-files.js";

/** Each folder's rooms and what each may import of its siblings. */
const ROOMS: Record<string, Record<string, readonly string[]>> = {
  "harness/src/evolution": {
    context: [],
    pipeline: ["context"],
    steps: ["context", "pipeline"],
    view: ["context"],
    loop: ["context", "pipeline", "steps", "view"],
    "arena-rounds": ["context", "steps", "view"],
    run: ["context", "steps", "view", "loop", "arena-rounds"],
  },
  "sandbox/src": {
    port: [],
    extract: ["port"],
    docker: ["port", "extract"],
    fleet: ["port", "docker"],
    connect: ["port", "docker", "fleet"],
    // Sessions write a tree that came in a runner message through the same extractor as an archive.
    sessions: ["port", "extract"],
    // The in-memory engine, for tests only: the port's twin built from the adapter's parts.
    memory: ["port", "docker", "extract"],
  },
};

function roomOf(parent: string, path: string): string | null {
  if (!path.startsWith(`${parent}/`)) return null;
  const parts = path.slice(parent.length + 1).split("/");
  return parts.length > 1 ? parts[0]! : null;
}

function violations(): string[] {
  const out: string[] = [];
  for (const [parent, rooms] of Object.entries(ROOMS)) {
    for (const file of sources(parent)) {
      const from = roomOf(parent, file);
      if (from === null) continue;
      const allowed = rooms[from];
      if (allowed === undefined) {
        out.push(`${file}: room "${from}" has no entry in the rooms table`);
        continue;
      }
      for (const spec of specifiers(file).filter((s) => s.startsWith("."))) {
        const to = target(file, spec);
        const toRoom = roomOf(parent, to);
        if (toRoom === null || toRoom === from) continue;
        if (!to.endsWith("/index.ts")) out.push(`${file}: imports ${to}; rooms reach each other through index.ts`);
        if (!allowed.includes(toRoom)) out.push(`${file}: ${from} → ${toRoom} points against the rooms' direction`);
      }
    }
  }
  return out;
}

describe("rooms", () => {
  it("are reached through their index.ts, in one direction", () => {
    expect(violations()).toEqual([]);
  });

  it("each have an index.ts and a README", () => {
    const missing: string[] = [];
    for (const [parent, rooms] of Object.entries(ROOMS)) {
      for (const room of Object.keys(rooms)) {
        const files = sources(`${parent}/${room}`);
        if (!files.includes(`${parent}/${room}/index.ts`)) missing.push(`${parent}/${room}/index.ts`);
        try {
          textOf(`${parent}/${room}/README.md`);
        } catch {
          missing.push(`${parent}/${room}/README.md`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("the sandbox raises only sandbox and common error codes", () => {
    const allowed = new Set<string>([...SandboxErrorCode.options, ...CommonErrorCode.options]);
    const bad: string[] = [];
    for (const file of [...sources("sandbox/src"), ...sources("sandbox/runner")]) {
      for (const m of textOf(file).matchAll(/new EvolveError\(\s*"([a-z_]+)"/g)) if (!allowed.has(m[1]!)) bad.push(`${file}: raises ${m[1]}`);
    }
    expect(bad).toEqual([]);
    // The check itself is checked: a harness code is not among the sandbox's.
    expect(allowed.has("archive_corrupt")).toBe(false);
  });
});
