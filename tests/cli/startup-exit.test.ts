/**
 * Every start-up failure of `evolve run` ends the process at once: the real binary, as a
 * child process, with each failure a new user meets (an engine that is not there, an
 * archive folder that cannot be written, a task or policy that does not load, Ctrl-C while
 * it starts). It must exit within 20 s with its one-line message, and leave no process
 * (the check worker) and no container of its session behind.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineEnv } from "../support/evolve-process.js";
import { descendantsOf, sessionLeftovers, survivors, watchDescendants } from "../support/process-tree.js";

const BIN = resolve(import.meta.dirname, "../../bin/evolve.js");
/** The bound for an engine or archive that is not there: found before any agent is checked. */
const EXIT_WITHIN_MS = 20_000;
/** A refused task is found with the agent's checks (every reason at once): a cold check worker on a busy machine. */
const CHECKED_EXIT_WITHIN_MS = 60_000;

/** Mounting a read-only file system takes root (the test machine's `npm test` runs as root). */
const IS_ROOT = process.getuid?.() === 0;
// In CI these cases never skip: not being root there fails them (mount refuses), loudly.
const AS_ROOT = IS_ROOT || process.env["CI"] !== undefined;

let scratch: string;
let readOnly: string | null = null;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "evolve-startup-"));
  writeFileSync(join(scratch, "a-file"), "not a folder\n");
  writeFileSync(join(scratch, "bad-policy.json"), JSON.stringify({ protectedPath: ["meta/**"] }));
  if (AS_ROOT) {
    // A read-only file system (a write-protected disk, a read-only bind mount): root cannot write there either.
    const mount = join(scratch, "read-only");
    mkdirSync(mount);
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", mount], { stdio: "ignore" });
    readOnly = mount;
  }
});

afterAll(() => {
  if (readOnly !== null) execFileSync("umount", [readOnly]);
  rmSync(scratch, { recursive: true, force: true });
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  limit: number;
  stderr: string;
  stdout: string;
  pid: number;
  descendants: Set<number>;
}

/** Runs `evolve ARGS` in the scratch folder; kills it at the limit so a hang fails instead of waiting. */
async function evolveRun(args: string[], options: { interruptWhen?: (descendants: Set<number>) => boolean; withinMs?: number } = {}): Promise<Ended> {
  const limit = options.withinMs ?? EXIT_WITHIN_MS;
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd: scratch, env: offlineEnv(), stdio: ["ignore", "pipe", "pipe"] });
  const pid = child.pid!;
  const watch = watchDescendants(pid);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const interrupter = options.interruptWhen === undefined
    ? null
    : setInterval(() => {
        if (options.interruptWhen?.(watch.seen) === true) {
          child.kill("SIGINT");
          clearInterval(interrupter!);
        }
      }, 100);
  const killer = setTimeout(() => {
    // What it left running is recorded before it is killed, then killed too.
    for (const d of descendantsOf(pid)) watch.seen.add(d);
    child.kill("SIGKILL");
  }, limit);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on("exit", (c, s) => r([c, s])));
  clearTimeout(killer);
  if (interrupter !== null) clearInterval(interrupter);
  const descendants = watch.stop();
  return { code, signal, ms: Date.now() - started, limit, stderr, stdout, pid, descendants };
}

/** Exited in time with `code`, said `message` in one line (and at most a "what to do" line), left nothing. */
async function expectCleanExit(ended: Ended, code: number, message: RegExp): Promise<void> {
  const left = await survivors(ended.descendants);
  for (const pid of left) process.kill(pid, "SIGKILL");
  expect(ended.signal, `killed after ${ended.limit} ms: it hung\n${ended.stderr}`).toBeNull();
  expect(ended.ms).toBeLessThan(ended.limit);
  expect(ended.code, ended.stderr).toBe(code);
  // Lines of a listed refusal ("- task ...: ...") belong to its message.
  const lines = ended.stderr.trim().split("\n").filter((l) => !/^\s*(swept|SIGINT)/.test(l) && !l.startsWith("- "));
  expect(lines[0], ended.stderr).toMatch(message);
  expect(lines.length, ended.stderr).toBeLessThanOrEqual(2);
  if (lines.length === 2) expect(lines[1]).toMatch(/^ {2}what to do: /);
  expect(ended.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
  expect(left, "processes it started are still running").toEqual([]);
  expect(await sessionLeftovers(ended.pid)).toEqual({ containers: [], volumes: [] });
}

describe("evolve run ends at once when it cannot start", () => {
  it("an engine that does not answer (tcp://127.0.0.1:1)", async () => {
    const ended = await evolveRun(["run", "--generations", "1", "--engine", "tcp://127.0.0.1:1"]);
    await expectCleanExit(ended, 1, /^evolve run: .*tcp:\/\/127\.0\.0\.1:1/);
  });

  it("a Docker context that does not exist", async () => {
    const ended = await evolveRun(["run", "--generations", "1", "--engine", "nosuchcontext"]);
    await expectCleanExit(ended, 1, /^evolve run: no Docker context named "nosuchcontext"/);
  });

  it("a socket that does not exist", async () => {
    const ended = await evolveRun(["run", "--generations", "1", "--engine", "unix:///missing.sock"]);
    await expectCleanExit(ended, 1, /^evolve run: .*unix:\/\/\/missing\.sock/);
  });

  it("--out naming a file", async () => {
    const ended = await evolveRun(["run", "--generations", "1", "--out", "a-file"]);
    await expectCleanExit(ended, 1, /^evolve run: cannot write the archive in .*a-file: it is a file, not a folder/);
  });

  it.skipIf(!AS_ROOT)("--out on a read-only file system", async () => {
    const ended = await evolveRun(["run", "--generations", "1", "--out", join(readOnly ?? "", "runs")]);
    await expectCleanExit(ended, 1, /^evolve run: cannot write the archive in .*read-only\/runs: the file system there is read-only/);
  });

  it("a task folder that does not exist", async () => {
    const ended = await evolveRun(["run", "--generations", "1", "--task", "./no-such-task"], { withinMs: CHECKED_EXIT_WITHIN_MS });
    expect(ended.stderr).toMatch(/no-such-task/);
    await expectCleanExit(ended, 1, /^evolve run: refusing to start the run:/);
  });

  it("a policy with a misspelt key", async () => {
    const ended = await evolveRun(["run", "--generations", "1", "--policy", "bad-policy.json"]);
    await expectCleanExit(ended, 1, /^evolve run: .*protectedPath/);
  });

  it("Ctrl-C while it starts (the check worker is up)", async () => {
    // The check worker is this process's first child: once it runs, start-up is under way.
    const ended = await evolveRun(["run", "--generations", "1", "--out", "interrupted"], { interruptWhen: (seen) => seen.size > 0, withinMs: CHECKED_EXIT_WITHIN_MS });
    await expectCleanExit(ended, 130, /^evolve run: interrupted while starting/);
  });
});

describe("the exit safety net", () => {
  it("ends a process whose command returned, with its code, even while something still holds it open", async () => {
    // A command that returned 3 but left an interval running (the kind of leak the net is for).
    const script = `import("${resolve(import.meta.dirname, "../../harness/src/cli/process-exit.ts")}").then((m) => { setInterval(() => undefined, 1000); m.exitWith(3); });`;
    const started = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx/esm", "-e", script], { cwd: resolve(import.meta.dirname, "../.."), stdio: "ignore" });
    const killer = setTimeout(() => child.kill("SIGKILL"), EXIT_WITHIN_MS);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on("exit", (c, s) => r([c, s])));
    clearTimeout(killer);
    expect(signal).toBeNull();
    expect(code).toBe(3);
    expect(Date.now() - started).toBeLessThan(EXIT_WITHIN_MS);
  });
});
