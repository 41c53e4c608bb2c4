/**
 * The runtime image's V8 code caches for its toolchain (sandbox/runner/code-cache.ts): in the
 * real image, under every runtime the engine has, V8 takes each cache (made on the host when the
 * image was built) and the toolchain works; and on the host, a cache V8 refuses or a missing one
 * changes nothing but speed.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNNER_MAIN, transpileRunner } from "../../sandbox/src/docker/index.js";
import { execCommand } from "../../sandbox/src/sessions/index.js";
import { PACKAGE_ROOT, type Runtime } from "../../harness/src/kernel/index.js";
import { runtimesUnderTest, testEngine, type TestEngine } from "../support/test-engine.js";

let t: TestEngine;
beforeAll(async () => {
  t = await testEngine();
});

const CODE_CACHE_MODULE = join(dirname(RUNNER_MAIN), "code-cache.js");

/** Runs `node -e script` in a container of the real image, with the given flags before -e; its first stdout line as JSON. */
async function runInImage(runtime: Runtime, flags: string[], script: string): Promise<unknown> {
  const created = await t.engine.createSandbox({ image: t.image.tag, command: [t.image.command[0] as string, ...flags, "-e", script], labels: { session: t.session, phase: "test" }, runtime });
  const lines: string[] = [];
  const running = await created.start({ timeoutMs: 60_000, stdoutCapBytes: 1024 * 1024, stderrCapBytes: 64 * 1024, onStdoutLine: (line) => lines.push(line) });
  try {
    expect((await running.finished).exitCode).toBe(0);
  } finally {
    await running.remove();
  }
  return JSON.parse(lines[0] ?? "null") as unknown;
}

describe.each(runtimesUnderTest())("the toolchain's code caches in the image (%s)", (runtime) => {
  it("are made under the flags the runner runs with, so V8 uses each one, and the toolchain works", async () => {
    // The caches are made with no V8 flags: a flag added to the runner's command would make V8
    // refuse every one of them, which this test would then show.
    expect(t.image.command).toEqual([t.image.command[0], RUNNER_MAIN]);
    const script = `(async () => {
      const { useCodeCache, codeCacheOutcomes } = await import(${JSON.stringify(CODE_CACHE_MODULE)});
      const served = useCodeCache();
      const { ts, Project } = await import("ts-morph");
      const typescript = (await import("typescript")).default;
      const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, skipLibCheck: true, lib: ["lib.es2023.d.ts"], noEmit: true } });
      const bad = project.createSourceFile("/t/a.ts", "export const n: number = 'x';").getPreEmitDiagnostics().map((d) => d.getCode());
      const out = typescript.transpileModule("export const x: number = 1;", { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText.trim();
      console.log(JSON.stringify({ served, outcomes: codeCacheOutcomes(), bad, out }));
    })();`;
    const report = (await runInImage(runtime, [], script)) as { served: number; outcomes: Record<string, string>; bad: number[]; out: string };
    expect(report.served).toBe(4);
    expect(report.outcomes).toEqual({
      "/node_modules/ts-morph/dist/ts-morph.js": "used",
      "/node_modules/@ts-morph/common/dist/ts-morph-common.js": "used",
      "/node_modules/@ts-morph/common/dist/typescript.js": "used",
      "/node_modules/typescript/lib/typescript.js": "used",
    });
    expect(report.bad).toEqual([2322]);
    expect(report.out).toBe("export const x = 1;");
  }, 120_000);

  it("are read by a code-test container under its permission model (the flags it runs with)", async () => {
    const flags = execCommand(t.image).slice(1, -1);
    const script = `(async () => {
      const { useCodeCache, codeCacheOutcomes } = await import(${JSON.stringify(CODE_CACHE_MODULE)});
      const served = useCodeCache();
      const typescript = (await import("typescript")).default;
      console.log(JSON.stringify({ served, outcomes: codeCacheOutcomes(), version: typeof typescript.version }));
    })();`;
    expect(await runInImage(runtime, flags, script)).toEqual({ served: 4, outcomes: { "/node_modules/typescript/lib/typescript.js": "used" }, version: "string" });
  }, 120_000);
});

describe("the code cache on the host", () => {
  /** Runs the runner's code-cache.js in a fresh node: serves `manifest` from `cacheDir`, then requires `file`. */
  async function loadThrough(manifest: Record<string, string> | null, cacheFiles: Record<string, Buffer>, file: string): Promise<{ served: number; outcomes: Record<string, string>; value: unknown }> {
    const dir = await mkdtemp(join(tmpdir(), "code-cache-"));
    await transpileRunner([join(PACKAGE_ROOT, "sandbox/runner/code-cache.ts")], join(dir, "runner"));
    await mkdir(join(dir, "code-cache"));
    if (manifest !== null) await writeFile(join(dir, "code-cache/manifest.json"), JSON.stringify(manifest));
    for (const [name, bytes] of Object.entries(cacheFiles)) await writeFile(join(dir, "code-cache", name), bytes);
    const program = `const { useCodeCache, codeCacheOutcomes } = await import(${JSON.stringify(join(dir, "runner/code-cache.js"))});
      const served = useCodeCache();
      const { createRequire } = await import("node:module");
      const value = createRequire(${JSON.stringify(file)})(${JSON.stringify(file)});
      console.log(JSON.stringify({ served, outcomes: codeCacheOutcomes(), value }));`;
    return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8", env: {} })) as { served: number; outcomes: Record<string, string>; value: unknown };
  }

  async function commonJsFile(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "code-cache-module-"));
    const file = join(dir, "answer.js");
    await writeFile(file, "module.exports = { answer: 6 * 7, file: __filename.endsWith('answer.js'), dir: typeof require('node:path').join };\n");
    return file;
  }

  it("a cache V8 refuses (garbage here) is compiled from the source instead, and says so", async () => {
    const file = await commonJsFile();
    const loaded = await loadThrough({ [file]: "answer.v8-cache" }, { "answer.v8-cache": Buffer.from("not a V8 code cache, but its bytes") }, file);
    expect(loaded).toEqual({ served: 1, outcomes: { [file]: "rejected" }, value: { answer: 42, file: true, dir: "function" } });
  });

  it("a named cache file that is not there is no cache; no manifest serves nothing", async () => {
    const file = await commonJsFile();
    expect(await loadThrough({ [file]: "gone.v8-cache" }, {}, file)).toEqual({ served: 1, outcomes: { [file]: "missing" }, value: { answer: 42, file: true, dir: "function" } });
    expect(await loadThrough(null, {}, file)).toEqual({ served: 0, outcomes: {}, value: { answer: 42, file: true, dir: "function" } });
  });
});
