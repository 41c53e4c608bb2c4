/**
 * The toolchain's ES-module entries (sandbox/src/docker/toolchain-esm-entry.ts): in the real
 * image, an agent's `import "ts-morph"` / `import "typescript"` goes through the entry and gets
 * what Node's own import of the CommonJS package gives (the same names, the same objects), while
 * `require` still gets the main file; on the host, the entry of any CommonJS package keeps its
 * names (reserved words and odd ones included), a package with its own exports map is left
 * alone, and a failure leaves the package as it was.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { addEsmEntries, ESM_ENTRY_FILE } from "../../sandbox/src/docker/index.js";
import { PACKAGE_ROOT, type Runtime } from "../../harness/src/kernel/index.js";
import { runtimesUnderTest, testEngine, type TestEngine } from "../support/test-engine.js";

let t: TestEngine;
beforeAll(async () => {
  t = await testEngine();
});

/** Runs an ES-module `node -e script` in a container of the real image; its first stdout line as JSON. */
async function runInImage(runtime: Runtime, script: string): Promise<unknown> {
  const created = await t.engine.createSandbox({ image: t.image.tag, command: [t.image.command[0] as string, "--input-type=module", "-e", script], labels: { session: t.session, phase: "test" }, runtime });
  const lines: string[] = [];
  const running = await created.start({ timeoutMs: 60_000, stdoutCapBytes: 4 * 1024 * 1024, stderrCapBytes: 64 * 1024, onStdoutLine: (line) => lines.push(line) });
  try {
    expect((await running.finished).exitCode).toBe(0);
  } finally {
    await running.remove();
  }
  return JSON.parse(lines[0] ?? "null") as unknown;
}

/** The names Node's import of a CommonJS file gives on the host (its lexer), `default` left out. */
function hostImportNames(file: string): string[] {
  const program = `process.stdout.write(JSON.stringify(Object.keys(await import(${JSON.stringify(pathToFileURL(file).href)})).filter((k) => k !== "default")))`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8", maxBuffer: 8 << 20 })) as string[];
}

describe.each(runtimesUnderTest())("the toolchain's ES-module entries in the image (%s)", (runtime) => {
  it("serve an import with the names and objects Node's import of the package gives; require gets the main file", async () => {
    const script = `
      import { createRequire } from "node:module";
      const require = createRequire("/work/agent.js");
      const out = {};
      for (const name of ["ts-morph", "typescript"]) {
        const ns = await import(name);
        const main = require(name);
        const names = Object.keys(ns).filter((k) => k !== "default");
        out[name] = {
          resolved: import.meta.resolve(name),
          required: require.resolve(name),
          names,
          defaultIsMain: ns.default === main,
          sameObjects: names.every((k) => ns[k] === main[k]),
        };
      }
      const { Project, ts } = await import("ts-morph");
      const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, skipLibCheck: true, lib: ["lib.es2023.d.ts"], noEmit: true } });
      out.diagnostics = project.createSourceFile("/t/a.ts", "export const n: number = 'x';").getPreEmitDiagnostics().map((d) => d.getCode());
      out.kind = ts.SyntaxKind[ts.SyntaxKind.Identifier];
      console.log(JSON.stringify(out));`;
    type Seen = { resolved: string; required: string; names: string[]; defaultIsMain: boolean; sameObjects: boolean };
    const report = (await runInImage(runtime, script)) as Record<"ts-morph" | "typescript", Seen> & { diagnostics: number[]; kind: string };
    const host = {
      "ts-morph": hostImportNames(join(PACKAGE_ROOT, "node_modules/ts-morph/dist/ts-morph.js")),
      typescript: hostImportNames(join(PACKAGE_ROOT, "node_modules/typescript/lib/typescript.js")),
    };
    for (const name of ["ts-morph", "typescript"] as const) {
      expect(report[name].resolved).toBe(`file:///node_modules/${name}/${ESM_ENTRY_FILE}`);
      expect(report[name].names).toEqual(host[name]);
      expect(report[name].names.length).toBeGreaterThan(100);
      expect(report[name].defaultIsMain).toBe(true);
      expect(report[name].sameObjects).toBe(true);
    }
    expect(report["ts-morph"].required).toBe("/node_modules/ts-morph/dist/ts-morph.js");
    expect(report.typescript.required).toBe("/node_modules/typescript/lib/typescript.js");
    expect(report.diagnostics).toEqual([2322]);
    expect(report.kind).toBe("Identifier");
  }, 120_000);
});

describe("ES-module entries on the host", () => {
  /** A CommonJS package `name` in a fresh node_modules, with `main` and `source`. */
  async function fakePackage(manifest: Record<string, unknown>, main: string, source: string): Promise<{ root: string; dir: string }> {
    const root = await mkdtemp(join(tmpdir(), "esm-entry-"));
    const dir = join(root, "node_modules", String(manifest.name));
    await mkdir(join(dir, "lib"), { recursive: true });
    await writeFile(join(dir, "package.json"), JSON.stringify(manifest));
    await writeFile(join(dir, main), source);
    return { root, dir };
  }

  const SOURCE = [
    "exports.plain = 1;",
    "exports.delete = 'reserved';",
    "exports['a-b'] = 'dashed';",
    "Object.defineProperty(exports, 'lazy', { enumerable: true, get: () => 'got' });",
    "module.exports.__esModule = true;",
  ].join("\n");

  it("keeps every name Node's import gives, and require still gets the main file", async () => {
    const { root, dir } = await fakePackage({ name: "cjs-lib", main: "lib/main" }, "lib/main.js", SOURCE);
    const before = hostImportNames(join(dir, "lib/main.js"));
    expect(await addEsmEntries(process.execPath, { "cjs-lib": dir })).toEqual({ ok: true, packages: ["cjs-lib"] });
    const program = `
      import { createRequire } from "node:module";
      const require = createRequire(${JSON.stringify(join(root, "x.js"))});
      const ns = await import("cjs-lib");
      process.stdout.write(JSON.stringify({ resolved: import.meta.resolve("cjs-lib"), required: require.resolve("cjs-lib"), deep: require.resolve("cjs-lib/lib/main.js"),
        names: Object.keys(ns).filter((k) => k !== "default"), values: [ns.plain, ns.delete, ns["a-b"], ns.lazy], same: ns.default === require("cjs-lib") }));`;
    const seen = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", program], { cwd: root, encoding: "utf8" })) as Record<string, unknown>;
    // Node's lexer does not see a getter defined this way: the entry offers what Node offers.
    expect(before).toEqual(expect.arrayContaining(["plain", "delete", "a-b"]));
    expect(before).not.toContain("lazy");
    expect(seen).toEqual({
      resolved: pathToFileURL(join(dir, ESM_ENTRY_FILE)).href,
      required: join(dir, "lib/main.js"),
      deep: join(dir, "lib/main.js"),
      names: before,
      values: [1, "reserved", "dashed", null],
      same: true,
    });
  });

  it("leaves a package with its own exports map alone", async () => {
    const manifest = { name: "mapped", main: "lib/main.js", exports: { ".": "./lib/main.js" } };
    const { dir } = await fakePackage(manifest, "lib/main.js", SOURCE);
    expect(await addEsmEntries(process.execPath, { mapped: dir })).toEqual({ ok: true, packages: [] });
    expect(JSON.parse(await readFile(join(dir, "package.json"), "utf8"))).toEqual(manifest);
  });

  it("says why when the names cannot be listed, and changes nothing", async () => {
    const manifest = { name: "broken", main: "lib/main.js" };
    const { dir } = await fakePackage(manifest, "lib/main.js", "throw new Error('does not load');");
    const result = await addEsmEntries(process.execPath, { broken: dir });
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.reason).toContain("does not load");
    expect(JSON.parse(await readFile(join(dir, "package.json"), "utf8"))).toEqual(manifest);
    expect(() => createRequire(join(dir, "x.js")).resolve(`./${ESM_ENTRY_FILE}`)).toThrow();
  });
});
