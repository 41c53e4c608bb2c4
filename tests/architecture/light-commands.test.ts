/**
 * Commands people type answer at once: `evolve --help`, a bad option and the inspect commands
 * load only what they use. Checked over the static import graph (what Node loads before the
 * first line of a command runs): from the CLI's entry no heavy package is reached (the engine
 * client, the compiler, the LLM client, tsx, esbuild: each is imported where it is used, with
 * `await import()`), and an inspect command's graph stays in the folders that read the archive.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, target, textOf } from "./source-files.js";

/** Packages that take a tenth of a second or more to load; none may load before a command runs. */
const HEAVY = ["dockerode", "tar-fs", "tar-stream", "typescript", "ts-morph", "openai", "tsx", "esbuild"];

/** Specifiers of the imports Node loads with the file: value imports and re-exports, not `import type` or `import()`. */
function staticSpecifiers(file: string): string[] {
  const statements = textOf(file).matchAll(/^\s*(import|export)(\s+type)?\s[^;]*?\sfrom\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gms);
  const out: string[] = [];
  for (const m of statements) {
    if (m[4] !== undefined) out.push(m[4]);
    else if (m[2] === undefined) out.push(m[3]!);
  }
  return out;
}

/** Every repository file and package a file loads, transitively, through static imports. */
function staticClosure(entry: string): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of staticSpecifiers(file)) {
      if (spec.startsWith(".")) {
        const to = target(file, spec);
        queue.push(existsSync(join(ROOT, to)) ? to : to.replace(/\.ts$/, ".js"));
      } else if (!spec.startsWith("node:")) {
        const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
        if (!packages.has(pkg)) packages.set(pkg, file);
      }
    }
  }
  return { files, packages };
}

const COMMANDS = "harness/src/cli/commands";
/**
 * The modules of the commands the compiled copy's inspect bundle serves: a bundle has no
 * files beside its code, so they must stay in the archive's readers too.
 */
const { INSPECT_COMMANDS } = (await import("../../scripts/compile-harness.mjs" as string)) as { INSPECT_COMMANDS: Record<string, string> };
const INSPECT = [...new Set(Object.values(INSPECT_COMMANDS))];

/** Folders an inspect command may load: the archive and what describes it. */
const READS_THE_ARCHIVE = /^harness\/src\/(kernel|text|results|supervision|selection|archive|arena|report|worker|cli\/inspect|cli\/supervise|cli\/commands\/(ls|show|tree|diff|lineage|pending|decisions|cat)\.ts$|cli\/command\.ts$)/;
/** The light entries the CLI reads its defaults from (tests/architecture/imports.test.ts). */
const LIGHT = new Set(["harness/src/evolution/run/run-settings.ts", "harness/src/validation/check-limits.ts"]);

describe("commands people type load only what they use", () => {
  it("the CLI's entry (help, an unknown command) loads the command table and the kernel, no command", () => {
    const { files, packages } = staticClosure("harness/src/cli/main.ts");
    const outside = [...files].filter((f) => !/^harness\/src\/(kernel\/|cli\/(main|command|usage|process-exit)\.ts$|cli\/commands\/index\.ts$)/.test(f));
    expect(outside).toEqual([]);
    expect([...packages.keys()]).toEqual(["zod"]);
  });

  it.each(readdirSync(join(ROOT, COMMANDS)).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")))(
    "%s (its help, a bad option, its start) reaches no heavy package",
    (file) => {
      const { packages } = staticClosure(`${COMMANDS}/${file}`);
      const heavy = HEAVY.filter((p) => packages.has(p)).map((p) => `${p} (imported by ${packages.get(p)})`);
      expect(heavy).toEqual([]);
    },
  );

  it.each(INSPECT)("%s loads the archive's readers and describers, not the machinery of a run", (name) => {
    const { files } = staticClosure(`${COMMANDS}/${name}.ts`);
    const outside = [...files].filter((f) => !READS_THE_ARCHIVE.test(f) && !LIGHT.has(f));
    expect(outside).toEqual([]);
  });

  it("the check sees what it is for", () => {
    const { files, packages } = staticClosure("harness/src/cli/commands/run.ts");
    expect(files.has("harness/src/evolution/run/run-settings.ts")).toBe(true);
    expect(staticSpecifiers("harness/src/cli/main.ts")).toContain("./commands/index.js");
    // The command table imports its commands with import() only.
    expect(staticSpecifiers("harness/src/cli/commands/index.ts")).toEqual([]);
    // A type-only import is erased; a value import is loaded.
    expect(staticSpecifiers("harness/src/llm/openai-port.ts")).not.toContain("openai");
    expect([...staticClosure("harness/src/validation/tree-compiler.ts").packages.keys()]).toContain("ts-morph");
    expect(packages.size).toBeGreaterThan(0);
  });
});
