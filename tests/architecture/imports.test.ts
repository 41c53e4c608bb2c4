/**
 * The dependency rules (docs/ARCHITECTURE.md), checked over every import of the trusted code: only the
 * sandbox talks to Docker, only the LLM folder loads openai, folders reach each other only
 * through their index.ts, and dependencies point one way (cli → evolution → the folders it
 * composes → sandbox). A new import against the rules fails here with the file and the rule.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, sources, specifiers, target, TRUSTED } from "./source-files.js";

/** What each harness folder may import of the others (and "sandbox": sandbox/src/index.ts). */
const ALLOWED: Record<string, readonly string[]> = {
  // The kernel is the vocabulary every layer speaks (the sandbox too): it imports nothing of the project.
  kernel: [],
  text: [],
  worker: ["kernel"],
  results: ["kernel"],
  supervision: ["kernel"],
  selection: ["kernel", "results", "text", "supervision"],
  archive: ["kernel", "results", "selection", "supervision", "text"],
  validation: ["kernel", "results", "sandbox", "supervision", "text", "worker"],
  llm: ["kernel", "text"],
  evaluation: ["kernel", "results", "sandbox", "text"],
  "task-api": ["kernel", "evaluation", "sandbox", "text"],
  arena: ["kernel", "results", "archive", "selection", "evaluation", "sandbox", "text", "worker"],
  report: ["kernel", "results", "archive", "arena", "selection", "supervision", "text"],
  evolution: ["kernel", "results", "selection", "archive", "arena", "validation", "llm", "evaluation", "report", "supervision", "sandbox", "text"],
  replay: ["kernel", "results", "selection", "archive", "arena", "validation", "llm", "evaluation", "report", "evolution", "supervision", "sandbox", "text"],
  cli: ["kernel", "results", "selection", "archive", "arena", "validation", "llm", "evaluation", "report", "evolution", "replay", "task-api", "supervision", "sandbox", "text"],
};

/**
 * Files other folders may import directly besides index.ts: light modules the CLI reads its
 * defaults and option schemas from, so `--help` and a bad option answer without loading the
 * engine client, the compiler or dockerode.
 */
const LIGHT_ENTRIES = new Set(["harness/src/evolution/run/run-settings.ts", "harness/src/validation/check-limits.ts"]);

/** Packages only one place may import. */
const OWNERS: Record<string, (file: string) => boolean> = {
  dockerode: (f) => f.startsWith("sandbox/src/"),
  "tar-fs": (f) => f.startsWith("sandbox/src/"),
  "tar-stream": (f) => f.startsWith("sandbox/src/"),
  openai: (f) => f.startsWith("harness/src/llm/"),
  // The checker; and the runner's code cache, which uses ts-morph once, when the image is built,
  // so V8 has compiled what an agent checking its edits runs.
  "ts-morph": (f) => f.startsWith("harness/src/validation/") || f === "sandbox/runner/code-cache.ts",
  // The compile gate; the runtime image, which transpiles the runner it ships; the code-test
  // runner, which type-checks a candidate's answer inside its container; and the runner's code
  // cache (as for ts-morph above).
  typescript: (f) => f.startsWith("harness/src/validation/") || f === "sandbox/src/docker/runtime-image.ts" || f === "sandbox/runner/exec-compile.ts" || f === "sandbox/runner/exec-main.ts" || f === "sandbox/runner/code-cache.ts",
};

/** The harness folder a repository path is in ("archive", "kernel"), "sandbox" for sandbox/, or null. */
function folderOf(path: string): string | null {
  const harness = /^harness\/src\/([^/]+)\//.exec(path);
  if (harness !== null) return harness[1]!;
  return path.startsWith("sandbox/") ? "sandbox" : null;
}

const KERNEL_INDEX = "harness/src/kernel/index.ts";
/** The agent contract: an ambient module (harness/src/kernel/evolve-contract.d.ts), never a file path. */
const CONTRACT = "@evolve/contract";

/** The import statement of `file` that names `spec`. */
function importLineOf(file: string, spec: string): string {
  const text = readFileSync(join(ROOT, file), "utf8");
  const at = text.indexOf(`"${spec}"`);
  return text.slice(Math.max(text.lastIndexOf("import", at), text.lastIndexOf("export", at)), at);
}


function violations(): string[] {
  const out: string[] = [];
  for (const file of TRUSTED) {
    const from = folderOf(file);
    for (const spec of specifiers(file)) {
      if (spec === CONTRACT) {
        if (!/^\s*(import|export)\s+type\s/.test(importLineOf(file, spec))) out.push(`${file}: imports ${CONTRACT} as a value; it is an ambient module of types only`);
        if (from === "sandbox") out.push(`${file}: imports ${CONTRACT}; the sandbox speaks the kernel's types (harness/src/kernel/index.ts)`);
        continue;
      }
      if (!spec.startsWith(".")) {
        const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
        const owner = OWNERS[pkg];
        if (owner !== undefined && !owner(file)) out.push(`${file}: imports ${pkg}, which only its owner may`);
        continue;
      }
      const to = target(file, spec);
      const toFolder = folderOf(to);
      if (from === "sandbox") {
        if (!to.startsWith("sandbox/") && to !== KERNEL_INDEX) out.push(`${file}: the sandbox imports ${to}; of the harness it knows only the kernel (${KERNEL_INDEX})`);
        continue;
      }
      if (toFolder === null || toFolder === from) continue;
      if (toFolder === "sandbox") {
        if (to !== "sandbox/src/index.ts") out.push(`${file}: imports ${to}; the sandbox is reached through sandbox/src/index.ts`);
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

/** The in-memory test engine's room (sandbox/src/memory/): only tests may reach into it. */
const TEST_ONLY = /^sandbox\/src\/memory\//;

/** Every module outside tests/ that is not a test: what ships, runs or benches. */
function shippedSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!["node_modules", "generations", "tests", ".git"].includes(e.name)) walk(rel);
      } else if (/\.(ts|mjs|js)$/.test(e.name) && !e.name.endsWith(".test.ts")) out.push(rel);
    }
  };
  walk("");
  return out;
}

/** Imports of the test-only engine from `files` by anything but the engine itself. */
function testOnlyViolations(files: readonly string[], specifiersOf: (file: string) => string[] = specifiers): string[] {
  const out: string[] = [];
  for (const file of files) {
    if (TEST_ONLY.test(file)) continue;
    for (const spec of specifiersOf(file)) {
      if (spec.startsWith(".") && TEST_ONLY.test(target(file, spec))) out.push(`${file}: imports ${target(file, spec)}, which only tests may (it isolates nothing)`);
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
    expect(ALLOWED["supervision"]).toEqual(["kernel"]);
    expect(ALLOWED["kernel"]).toEqual([]);
    // The LLM broker speaks the kernel's wire types; it needs nothing of the sandbox.
    expect(ALLOWED["llm"]).not.toContain("sandbox");
    expect(target("harness/src/archive/run-record.ts", "../selection/rng.js")).toBe("harness/src/selection/rng.ts");
  });

  it("connect to Docker in one wiring point: the sandbox makes clients in one file, the harness calls it from one", () => {
    const makesClients = TRUSTED.filter((f) => /new Docker\(/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(makesClients).toEqual(["sandbox/src/connect/connect-engines.ts"]);
    const connects = TRUSTED.filter((f) => f.startsWith("harness/") && /\bconnectEngines\b/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(connects).toEqual(["harness/src/cli/engine-wiring.ts"]);
  });

  it("keep the in-memory test engine out of everything but tests (tests/**, *.test.ts), so it is never wired into the CLI", () => {
    const files = shippedSources();
    expect(files).toContain("bin/evolve.js");
    expect(files.filter((f) => TEST_ONLY.test(f))).toContain("sandbox/src/memory/in-memory-engine.ts");
    expect(testOnlyViolations(files)).toEqual([]);
    // The check itself is checked: an index that exported the engine would be caught.
    expect(testOnlyViolations(["sandbox/src/index.ts"], () => ["./memory/index.js"])).toHaveLength(1);
    expect(testOnlyViolations(["harness/src/cli/engine-wiring.ts"], () => ["../../../sandbox/src/memory/in-memory-engine.js"])).toHaveLength(1);
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
