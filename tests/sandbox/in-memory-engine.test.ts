/**
 * What is the in-memory engine's own (what it shares with Docker is in engine-contract.test.ts):
 * it refuses what it cannot run as an engine without it would, it finds and sweeps its
 * sandboxes by their records across processes, it stages the runner once per content, and
 * the runner's workspace moves only when this engine says so.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryEngine } from "../../sandbox/src/memory/index.js";
import { newSessionId, type RuntimeImage } from "../../sandbox/src/index.js";

let root: string;
let engine: InMemoryEngine;
let image: RuntimeImage;
const session = newSessionId();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "evolve-memory-test-"));
  engine = new InMemoryEngine({ root });
  image = await engine.ensureRuntimeImage();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A pid that was ours and is gone now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

describe("the in-memory engine", () => {
  it("stages the runner once per content: a second engine on the same root finds it", async () => {
    expect(image).toMatchObject({ tag: expect.stringMatching(/^evolve-memory:[0-9a-f]{16}$/), built: true });
    expect(engine.engines()).toEqual([expect.objectContaining({ state: "up", slots: null, running: 0, image: "built" })]);
    const second = new InMemoryEngine({ root });
    expect(await second.ensureRuntimeImage()).toEqual({ ...image, built: false });
    expect(second.engines()[0]?.image).toBe("found");
    expect((await second.info()).runtimes).toEqual(["runc"]);
  });

  it("refuses another image, the runsc runtime, a command that is not node, and a base image", async () => {
    const labels = { session };
    await expect(engine.createSandbox({ image: "evolve-runtime:0123456789abcdef", command: image.command, labels })).rejects.toMatchObject({ code: "engine_failed", message: expect.stringContaining("no image evolve-runtime:") });
    await expect(engine.createSandbox({ image: image.tag, command: image.command, labels, runtime: "runsc" })).rejects.toMatchObject({ code: "engine_failed", message: expect.stringContaining("no runsc runtime") });
    await expect(engine.createSandbox({ image: image.tag, command: ["/bin/sh", "-c", "true"], labels })).rejects.toMatchObject({ code: "engine_failed", message: expect.stringContaining("node only") });
    await expect(engine.ensureRuntimeImage({ baseImage: "node:20-slim" })).rejects.toMatchObject({ code: "image_build_failed" });
    expect(await engine.countManaged(session)).toEqual({ containers: 0, volumes: 0 });
  });

  it("sweeps by default only the sandboxes whose owner process is dead, killing a process it left", async () => {
    // A sandbox of a live session, and one whose owner died while its process ran on.
    const live = await engine.createSandbox({ image: image.tag, command: [image.command[0]!, "-e", "process.stdin.resume()"], labels: { session } });
    const running = await live.start({ timeoutMs: 20_000, stdoutCapBytes: 1024, stderrCapBytes: 1024 });
    const orphan = await engine.createSandbox({ image: image.tag, command: [image.command[0]!, "-e", "setInterval(() => {}, 1000)"], labels: { session: "gone.1.x" } });
    const orphanRunning = await orphan.start({ timeoutMs: 20_000, stdoutCapBytes: 1024, stderrCapBytes: 1024 });
    const stage = (await readdir(root)).find((name) => !name.startsWith("."))!;
    const record = join(root, stage, "sandboxes", orphan.id, "sandbox.json");
    const written = JSON.parse(await readFile(record, "utf8")) as { owner: number };
    await writeFile(record, JSON.stringify({ ...written, owner: await deadPid() }));
    // A half-made folder without a record is nobody's to judge but `all`'s.
    await mkdir(join(root, stage, "sandboxes", "mem-halfmade"));
    try {
      expect(await engine.sweep()).toEqual({ containers: 1, volumes: 1 });
      expect(await orphanRunning.finished).toMatchObject({ exitCode: 137 });
      expect(await engine.countManaged(session)).toEqual({ containers: 1, volumes: 1 });
      expect(await engine.countManaged()).toEqual({ containers: 2, volumes: 2 });
    } finally {
      await running.remove();
      await orphanRunning.remove();
    }
    expect(await engine.sweep({ all: true })).toEqual({ containers: 1, volumes: 1 });
    expect(await engine.countManaged()).toEqual({ containers: 0, volumes: 0 });
  });

  it("bounds the CPU time of a sandbox's process, so one that nobody removes (its test run killed) cannot spin for ever", async () => {
    const sandbox = await engine.createSandbox({ image: image.tag, command: [image.command[0]!, "-e", "process.stdin.resume()"], labels: { session } });
    const running = await sandbox.start({ timeoutMs: 7_500, stdoutCapBytes: 1024, stderrCapBytes: 1024 });
    try {
      const stage = (await readdir(root)).find((name) => !name.startsWith("."))!;
      const { pid } = JSON.parse(await readFile(join(root, stage, "sandboxes", sandbox.id, "sandbox.json"), "utf8")) as { pid: number };
      // The shell that set the bound exec'd the command: the sandbox's pid is node's own.
      await expect.poll(async () => (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0")[0]).toBe(process.execPath);
      const limit = (await readFile(`/proc/${pid}/limits`, "utf8")).split("\n").find((l) => l.startsWith("Max cpu time"));
      const seconds = 8 * availableParallelism() + 5;
      expect(limit).toMatch(new RegExp(`^Max cpu time\\s+${seconds}\\s+${seconds}\\s+seconds`));
    } finally {
      await running.remove();
    }
  });

  it("keeps the runner's workspace at /work unless its process environment names another (the image's never does)", async () => {
    const stage = (await readdir(root)).find((name) => !name.startsWith("."))!;
    const module = join(root, stage, "runner", "work-dirs.js");
    const script = `const d = await import(${JSON.stringify(module)}); console.log(JSON.stringify([d.WORK_DIR, d.AGENT_DIR, d.BUILD_DIR]));`;
    const read = (env: NodeJS.ProcessEnv): string[] => JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { env, encoding: "utf8" })) as string[];
    expect(read({ HOME: "/tmp", NODE_ENV: "production" })).toEqual(["/work", "/work/agent", "/work/build"]);
    expect(read({ EVOLVE_RUNNER_WORK_DIR: "/tmp/box/work" })).toEqual(["/tmp/box/work", "/tmp/box/work/agent", "/tmp/box/work/build"]);
  });
});
