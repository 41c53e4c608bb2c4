/**
 * The meta agent's tree comes out with the runner's message (improve's result, each evaluate
 * request) instead of Docker's archive, on the real engine; whatever the archive path would
 * have to judge (a link, a tree over the snapshot's limit) still goes through the archive.
 */
import { mkdtemp, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runImprove } from "../../sandbox/src/index.js";
import type { RunningSandbox, SandboxEngine } from "../../sandbox/src/index.js";
import type { ImproveOptions } from "../../sandbox/src/sessions/improve-session.js";
import { writeJsBuild } from "../support/js-build.js";
import { testEngine } from "../support/test-engine.js";
import type { TestEngine } from "../support/test-engine.js";

let t: TestEngine;
beforeAll(async () => {
  t = await testEngine();
});
afterEach(async () => {
  expect(await t.engine.countManaged(t.session)).toEqual({ containers: 0, volumes: 0 });
});

/** The test engine, counting the archive takes of the sandboxes it starts. */
function countingArchiveTakes(engine: SandboxEngine): { engine: SandboxEngine; takes: () => number } {
  let takes = 0;
  const wrap = (sandbox: RunningSandbox): RunningSandbox =>
    new Proxy(sandbox, {
      get(target, prop) {
        if (prop === "takeDirectory") return (...args: Parameters<RunningSandbox["takeDirectory"]>) => (takes++, target.takeDirectory(...args));
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const counted = new Proxy(engine, {
    get(target, prop) {
      if (prop === "startSandbox") return async (...args: Parameters<SandboxEngine["startSandbox"]>) => wrap(await target.startSandbox(...args));
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { engine: counted, takes: () => takes };
}

async function improveWith(meta: string, extra: Partial<ImproveOptions> = {}) {
  const counted = countingArchiveTakes(t.engine);
  const agentDir = await mkdtemp(join(tmpdir(), "evolve-agent-"));
  await writeFile(join(agentDir, "x.ts"), "export const x = 1;\n");
  const takeTo = join(await mkdtemp(join(tmpdir(), "evolve-take-")), "tree");
  const result = await runImprove({
    engine: counted.engine,
    image: t.image,
    labels: { session: t.session, phase: "test" },
    buildDir: await writeJsBuild({ meta }),
    agentDir,
    takeTo,
    timeoutMs: 30_000,
    init: { task: "demo", seed: 1, llmAvailable: false, deadline: Date.now() + 30_000, request: {} },
    ...extra,
  });
  return { result, takeTo, archiveTakes: counted.takes() };
}

describe("the agent tree out of an improve container", () => {
  it("comes with improve's result: files, binary bytes and an empty folder, no archive take", async () => {
    const meta = `import { mkdir, writeFile } from "node:fs/promises";
      export async function improve(request, ctx) {
        await ctx.files.write("task/deep/new.ts", "export const y = 2;\\n");
        await mkdir("/work/agent/empty");
        await writeFile("/work/agent/bytes.bin", Buffer.from([0, 255, 10, 13, 128]));
        return { summary: "ok", changedFiles: [] };
      }\n`;
    const { result, takeTo, archiveTakes } = await improveWith(meta);
    expect(result.end, result.outcome.stderr).toBeNull();
    expect(result.extracted).toEqual({ ok: true, files: 3, bytes: 20 + 20 + 5 });
    expect(archiveTakes).toBe(0);
    expect(await readFile(join(takeTo, "task/deep/new.ts"), "utf8")).toBe("export const y = 2;\n");
    expect([...(await readFile(join(takeTo, "bytes.bin")))]).toEqual([0, 255, 10, 13, 128]);
    expect((await stat(join(takeTo, "empty"))).isDirectory()).toBe(true);
    expect((await readdir(takeTo)).sort()).toEqual(["bytes.bin", "empty", "task", "x.ts"]);
  });

  it("comes with each evaluate request, as it was at the call", async () => {
    const meta = `export async function improve(request, ctx) {
        await ctx.files.write("draft.ts", "one");
        await ctx.evaluate({});
        await ctx.files.write("draft.ts", "two");
        await ctx.evaluate({});
        return { summary: "ok", changedFiles: [] };
      }\n`;
    const seen: string[] = [];
    const { result, archiveTakes } = await improveWith(meta, {
      evaluate: {
        answer: async (_request, workspace) => {
          const dir = join(await mkdtemp(join(tmpdir(), "evolve-draft-")), "tree");
          const taken = await workspace.take(dir);
          seen.push(taken.ok ? await readFile(join(dir, "draft.ts"), "utf8") : taken.reason);
          return null;
        },
        unavailable: () => null,
      },
    });
    expect(result.end, result.outcome.stderr).toBeNull();
    expect(seen).toEqual(["one", "two"]);
    expect(archiveTakes).toBe(0);
  });

  it("goes through the archive when it holds a link, and is refused there as before", async () => {
    const meta = `import { symlink } from "node:fs/promises";
      export async function improve() { await symlink("/etc/passwd", "/work/agent/link"); return { summary: "ok", changedFiles: [] }; }\n`;
    const { result, archiveTakes } = await improveWith(meta);
    expect(archiveTakes).toBe(1);
    expect(result.extracted.ok).toBe(false);
    expect(result.extracted.ok ? "" : result.extracted.reason).toMatch(/symbolic link refused/);
  });

  it("goes through the archive when it is over the snapshot's limit", async () => {
    const meta = `import { writeFile } from "node:fs/promises";
      export async function improve() { await writeFile("/work/agent/a.bin", Buffer.alloc(700 * 1024, 1)); await writeFile("/work/agent/b.bin", Buffer.alloc(700 * 1024, 2)); return { summary: "ok", changedFiles: [] }; }\n`;
    const { result, takeTo, archiveTakes } = await improveWith(meta);
    expect(archiveTakes).toBe(1);
    expect(result.extracted).toMatchObject({ ok: true, files: 3 });
    expect((await readFile(join(takeTo, "b.bin"))).length).toBe(700 * 1024);
  });
});
