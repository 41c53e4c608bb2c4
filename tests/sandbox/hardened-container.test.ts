/**
 * The hardened container on the real engine, under every runtime the engine has:
 * isolation, limits and outcomes as values, and nothing left behind.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunOutcome, SandboxLimits } from "../../sandbox/src/index.js";
import type { Runtime } from "../../harness/src/kernel/index.js";
import { runtimesUnderTest, testEngine } from "../support/test-engine.js";
import type { TestEngine } from "../support/test-engine.js";

let t: TestEngine;
beforeAll(async () => {
  t = await testEngine();
});

interface ScriptRun {
  outcome: RunOutcome;
  lines: string[];
}

/** Run `node -e script` in a hardened container; stdin gets one line so scripts can wait for it. */
async function runScript(runtime: Runtime, script: string, options: { timeoutMs?: number; stdoutCap?: number; limits?: Partial<SandboxLimits> } = {}): Promise<ScriptRun> {
  const node = t.image.command[0] as string;
  const created = await t.engine.createSandbox({
    image: t.image.tag,
    command: [node, "-e", script],
    labels: { session: t.session, phase: "test" },
    runtime,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const lines: string[] = [];
  const running = await created.start({
    timeoutMs: options.timeoutMs ?? 20_000,
    stdoutCapBytes: options.stdoutCap ?? 1024 * 1024,
    stderrCapBytes: 64 * 1024,
    onStdoutLine: (line) => lines.push(line),
  });
  try {
    running.send("go");
    return { outcome: await running.finished, lines };
  } finally {
    await running.remove();
  }
}

describe.each(runtimesUnderTest())("hardened container (%s)", (runtime) => {
  afterEach(async () => {
    expect(await t.engine.countManaged(t.session)).toEqual({ containers: 0, volumes: 0 });
  });

  it("runs node from the image as a non-root user", async () => {
    const { outcome, lines } = await runScript(runtime, "console.log(JSON.stringify({ v: process.version, uid: process.getuid() }))");
    expect(outcome.exitCode).toBe(0);
    const info = JSON.parse(lines[0] ?? "{}") as { v: string; uid: number };
    expect(info.v).toBe(process.version);
    expect(info.uid).toBe(65534);
  });

  it("has no network: DNS lookups and TCP connects fail", async () => {
    const script = `
      const dns = require("dns"), net = require("net");
      const results = {};
      dns.lookup("example.com", (err) => { results.dns = err ? err.code : "resolved";
        const s = net.connect({ host: "1.1.1.1", port: 80, timeout: 3000 });
        s.on("connect", () => { results.tcp = "connected"; done(); });
        s.on("timeout", () => { results.tcp = "timeout"; done(); });
        s.on("error", (e) => { results.tcp = e.code; done(); });
      });
      function done() { console.log(JSON.stringify(results)); process.exit(0); }`;
    const { lines } = await runScript(runtime, script);
    const results = JSON.parse(lines[0] ?? "{}") as { dns: string; tcp: string };
    expect(results.dns).not.toBe("resolved");
    expect(results.tcp).not.toBe("connected");
  });

  it("refuses writes to the root filesystem", async () => {
    const script = `
      const fs = require("fs"); const out = {};
      for (const p of ["/evil.txt", "/usr/evil.txt", "/opt/evolve/runner/main.js"]) {
        try { fs.writeFileSync(p, "x"); out[p] = "written"; } catch (e) { out[p] = e.code; }
      }
      console.log(JSON.stringify(out));`;
    const { lines } = await runScript(runtime, script);
    const out = JSON.parse(lines[0] ?? "{}") as Record<string, string>;
    for (const code of Object.values(out)) expect(["EROFS", "EACCES"]).toContain(code);
  });

  it("round-trips a workspace byte-identical", async () => {
    const source = await mkdtemp(join(tmpdir(), "evolve-ws-"));
    const files: Record<string, Buffer> = {
      "a.txt": Buffer.from("hello\n"),
      "nested/deeper/b.bin": randomBytes(200_000),
      "nested/empty.txt": Buffer.alloc(0),
      "unicodé name.ts": Buffer.from("export const x = 1;\n"),
    };
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(source, path, ".."), { recursive: true });
      await writeFile(join(source, path), content);
    }
    const node = t.image.command[0] as string;
    const created = await t.engine.createSandbox({ image: t.image.tag, command: [node, "-e", "process.stdin.resume()"], labels: { session: t.session }, runtime });
    const running = await created.start({ timeoutMs: 20_000, stdoutCapBytes: 1024, stderrCapBytes: 1024 });
    const dest = join(await mkdtemp(join(tmpdir(), "evolve-ws-")), "out");
    try {
      await running.putDirectory(source, "/work/tree");
      const taken = await running.takeDirectory("/work/tree", dest);
      expect(taken).toMatchObject({ ok: true, files: 4 });
      for (const [path, content] of Object.entries(files)) expect((await readFile(join(dest, path))).equals(content)).toBe(true);
    } finally {
      await running.remove();
    }
  });

  it("kills a process that traps SIGTERM and spins, at the timeout", async () => {
    const started = Date.now();
    const { outcome } = await runScript(runtime, `process.on("SIGTERM", () => {}); for (;;) {}`, { timeoutMs: 2_000 });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.killed).toBe(true);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("reports a memory hog as OOM-killed", async () => {
    const script = `const keep = []; for (;;) { const b = Buffer.alloc(16 << 20); b.fill(1); keep.push(b); }`;
    const { outcome } = await runScript(runtime, script, { limits: { memoryBytes: 128 << 20 } });
    // The whole outcome in the message: a failure here once left no trace of the exit code.
    expect(outcome.exitCode, JSON.stringify(outcome)).not.toBe(0);
    expect(outcome.oomKilled, JSON.stringify(outcome)).toBe(true);
  });

  it("does not call a process that SIGKILLs itself OOM-killed", async () => {
    // Same exit code as an OOM kill (137), not sent by the harness: only the engine's word
    // (its flag or its `oom` event) may make it an OOM kill.
    const { outcome } = await runScript(runtime, `Buffer.alloc(8 << 20).fill(1); process.kill(process.pid, "SIGKILL");`, { limits: { memoryBytes: 128 << 20 } });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ exitCode: 137, oomKilled: false, killed: false, timedOut: false });
  });

  it("cuts a stdout flood at the cap and reports it", async () => {
    const flood = `const s = "x".repeat(65536); (function w() { if (process.stdout.write(s)) setImmediate(w); else process.stdout.once("drain", w); })();`;
    const { outcome, lines } = await runScript(runtime, flood, { stdoutCap: 256 * 1024 });
    expect(outcome.stdoutTruncated).toBe(true);
    expect(outcome.killed).toBe(true);
    expect(lines.join("").length).toBeLessThanOrEqual(256 * 1024);
  });

  it("stops a fork loop at the pids limit", async () => {
    const script = `
      const { spawn } = require("child_process"); const kids = []; let error = null;
      for (let i = 0; i < 200 && !error; i++) {
        try { const c = spawn(process.execPath, ["-e", "setTimeout(()=>{}, 20000)"]); c.on("error", (e) => { error = error || e.code; }); kids.push(c); }
        catch (e) { error = e.code; }
      }
      setTimeout(() => { console.log(JSON.stringify({ spawned: kids.filter(k => k.pid).length, error })); process.exit(0); }, 1500);`;
    const { outcome, lines } = await runScript(runtime, script, { limits: { pidsLimit: 32 } });
    if (runtime === "runsc" && lines.length === 0) {
      // Under gVisor the pids cgroup bounds the whole sandbox: the fork loop takes the
      // sandbox kernel down with it (exit 2), which contains it just as well.
      expect(outcome.timedOut).toBe(false);
      expect(outcome.exitCode).not.toBe(0);
      return;
    }
    const result = JSON.parse(lines[0] ?? "{}") as { spawned: number; error: string | null };
    expect(result.error).toMatch(/EAGAIN|ENOMEM/);
    expect(result.spawned).toBeLessThan(32);
  });
});
