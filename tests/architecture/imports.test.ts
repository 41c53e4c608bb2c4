/**
 * The dependency rules of DESIGN.md, checked over every import of the trusted code: only the
 * sandbox talks to Docker, only the LLM folder loads openai, folders reach each other only
 * through their index.ts, and dependencies point one way (cli → evolution → the folders it
 * composes → sandbox). A new import against the rules fails here with the file and the rule.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** What each harness folder may import of the others (and "sandbox": sandbox/src/index.ts). */
const ALLOWED: Record<string, readonly string[]> = {
  errors: ["sandbox"], // only sandbox/src/errors.ts: the base error lives in the lowest layer
  results: ["sandbox"], // only the one JSON schema, which the runner protocol owns
  text: [],
  contract: [],
  supervision: ["errors"],
  selection: ["errors", "text", "supervision"],
  archive: ["errors", "results", "selection", "supervision", "text"],
  validation: ["errors", "results", "sandbox", "supervision", "text"],
  llm: ["errors", "sandbox", "text"],
  evaluation: ["errors", "results", "sandbox", "text"],
  "task-api": ["errors", "evaluation", "sandbox", "text"],
  arena: ["errors", "results", "archive", "selection", "evaluation", "sandbox", "text"],
  report: ["errors", "results", "archive", "arena", "selection", "supervision", "text"],
  evolution: ["errors", "results", "selection", "archive", "arena", "validation", "llm", "evaluation", "report", "supervision", "sandbox", "text"],
  replay: ["errors", "results", "selection", "archive", "arena", "validation", "llm", "evaluation", "report", "evolution", "supervision", "sandbox", "text"],
  cli: ["errors", "results", "selection", "archive", "arena", "validation", "llm", "evaluation", "report", "evolution", "replay", "task-api", "supervision", "sandbox", "text"],
};

/**
 * Files other folders may import directly besides index.ts: light modules the CLI reads its
 * defaults and option schemas from, so `--help` and a bad option answer without loading the
 * engine client, the compiler or dockerode.
 */
const LIGHT_ENTRIES = new Set(["harness/src/evolution/run-options.ts", "harness/src/validation/check-limits.ts"]);

/** Packages only one place may import. */
const OWNERS: Record<string, (file: string) => boolean> = {
  dockerode: (f) => f.startsWith("sandbox/src/"),
  "tar-fs": (f) => f.startsWith("sandbox/src/"),
  "tar-stream": (f) => f.startsWith("sandbox/src/"),
  openai: (f) => f.startsWith("harness/src/llm/"),
  "ts-morph": (f) => f.startsWith("harness/src/validation/"),
  // The compile gate; the runtime image, which transpiles the runner it ships; and the code-test
  // runner, which type-checks a candidate's answer inside its container.
  typescript: (f) => f.startsWith("harness/src/validation/") || f === "sandbox/src/runtime-image.ts" || f === "sandbox/runner/exec-compile.ts" || f === "sandbox/runner/exec-main.ts",
};

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|mjs)$/.test(e.name) && !e.name.endsWith(".test.ts")) out.push(rel);
  }
  return out;
}

/** Every module specifier of a file: static imports and re-exports, dynamic import() of a literal. */
function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const found = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/gms), ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g), ...text.matchAll(/^\s*import\s+["']([^"']+)["']/gm)];
  return found.map((m) => m[1]!);
}

/** The harness folder a repository path is in ("archive"), "sandbox" for sandbox/, or null. */
function folderOf(path: string): string | null {
  const harness = /^harness\/src\/([^/]+)\//.exec(path);
  if (harness !== null) return harness[1]!;
  return path.startsWith("sandbox/") ? "sandbox" : null;
}

/** The repository path an import resolves to (.js written for .ts). */
function target(file: string, spec: string): string {
  const path = normalize(join(dirname(file), spec)).split("\\").join("/");
  return path.replace(/\.js$/, ".ts");
}

const TRUSTED = [...sources("harness/src"), ...sources("sandbox/src"), ...sources("sandbox/runner")];

function violations(): string[] {
  const out: string[] = [];
  for (const file of TRUSTED) {
    const from = folderOf(file);
    for (const spec of specifiers(file)) {
      if (!spec.startsWith(".")) {
        const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
        const owner = OWNERS[pkg];
        if (owner !== undefined && !owner(file)) out.push(`${file}: imports ${pkg}, which only its owner may`);
        continue;
      }
      const to = target(file, spec);
      const toFolder = folderOf(to);
      if (from === "sandbox") {
        if (!to.startsWith("sandbox/")) out.push(`${file}: the sandbox imports ${to} (it knows nothing of the harness)`);
        continue;
      }
      if (toFolder === null || toFolder === from) continue;
      if (toFolder === "sandbox") {
        const viaErrors = file === "harness/src/errors/index.ts" && to === "sandbox/src/errors.ts";
        if (to !== "sandbox/src/index.ts" && !viaErrors) out.push(`${file}: imports ${to}; the sandbox is reached through sandbox/src/index.ts`);
      } else if (!to.endsWith("/index.ts") && !LIGHT_ENTRIES.has(to)) {
        out.push(`${file}: imports ${to}; folders import each other through index.ts`);
      }
      const allowed = ALLOWED[from ?? ""];
      if (allowed === undefined) out.push(`${file}: folder "${from}" has no entry in the dependency rules`);
      else if (!allowed.includes(toFolder)) out.push(`${file}: ${from} → ${toFolder} points against the dependency direction`);
    }
  }
  return out;
}

describe("dependency rules", () => {
  it("hold for every import of the harness and the sandbox", () => {
    expect(TRUSTED.length).toBeGreaterThan(100);
    expect(violations()).toEqual([]);
  });

  it("catch what they are for (the check itself is checked)", () => {
    expect(specifiers("harness/src/validation/tree-compiler.ts")).toContain("ts-morph");
    expect(folderOf("harness/src/archive/tree.ts")).toBe("archive");
    expect(ALLOWED["selection"]).not.toContain("archive");
    expect(ALLOWED["archive"]).not.toContain("evolution");
    // The run policy is a leaf: the archive, selection and the gates read it, it reads none of them.
    expect(ALLOWED["supervision"]).toEqual(["errors"]);
    expect(target("harness/src/archive/run-record.ts", "../selection/rng.js")).toBe("harness/src/selection/rng.ts");
  });

  it("connect to Docker in one wiring point: the sandbox makes clients in one file, the harness calls it from one", () => {
    const makesClients = TRUSTED.filter((f) => /new Docker\(/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(makesClients).toEqual(["sandbox/src/connect-engines.ts"]);
    const connects = TRUSTED.filter((f) => f.startsWith("harness/") && /\bconnectEngines\b/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(connects).toEqual(["harness/src/cli/engine-wiring.ts"]);
  });

  it("keep tasks on the public task API", () => {
    const bad: string[] = [];
    for (const file of sources("tasks")) {
      for (const spec of specifiers(file)) {
        const ok = spec === "evolve/task" || spec === "zod" || spec.startsWith("node:") || (spec.startsWith("./") && !spec.includes(".."));
        if (!ok) bad.push(`${file}: imports ${spec}; tasks import only evolve/task, zod, node: built-ins and their own files`);
      }
    }
    expect(bad).toEqual([]);
  });
});
