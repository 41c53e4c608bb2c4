/**
 * One rule for exit codes and messages: a wrong command line is one line and exit 2, in the
 * same words for every option (`--X expects <rule>, got "<value>" (see evolve <cmd> --help)`);
 * a harness failure is exit 1; a closed stdout ends the command quietly with 0 (a run stops
 * cleanly first). Through the real binary.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_BIN, runEvolve } from "../byo/cli-process.js";
import { offlineEnv } from "../support/evolve-process.js";
import { sessionLeftovers } from "../support/process-tree.js";
import { writeSyntheticRun, type SyntheticRun } from "../report/synthetic-archive.js";

const ROOT = resolve(import.meta.dirname, "../..");

let synthetic: SyntheticRun;

beforeAll(async () => {
  synthetic = await writeSyntheticRun({ generations: 4, runId: "codes" });
});

afterAll(async () => {
  await synthetic.cleanup();
});

describe("a wrong command line", () => {
  it.each([
    [["run", "--generations", "-1"], "--generations expects a whole number from 0 to 100000, got \"-1\""],
    [["run", "--generations", "abc"], "--generations expects a whole number from 0 to 100000, got \"abc\""],
    [["run", "--workers", "0"], "--workers expects a whole number from 1 to 64, got \"0\""],
    [["run", "--check-memory", "10"], "--check-memory expects a whole number from 256 to 16384, got \"10\""],
    [["run", "--check-timeout", "0.5"], "--check-timeout expects a number from 1 to 3600 seconds, got \"0.5\""],
    [["run", "--selection", "fastest"], "--selection expects one of score_child_prop, hyperagents, cmp, best, random, greedy, latest, got \"fastest\""],
    [["run", "--arena", "--rounds", "0"], "--rounds expects a whole number from 1 to 10000, got \"0\""],
    [["run", "--rounds", "2"], "--rounds applies to an arena run only: add --arena"],
    [["run", "--generations"], "--generations expects a value"],
    [["run", "--frobnicate"], "unknown option --frobnicate"],
    [["doctor", "--frobnicate=1"], "unknown option --frobnicate"],
    [["replay", "r", "g0001", "--tolerance", "-1"], "--tolerance expects a number of at least 0, got \"-1\""],
    [["ls", "extra"], "expected no arguments, got extra"],
    [["new", "thing", "x"], "expected task or agent, got \"thing\""],
    [["watch", "r", "--speed", "fast"], "--speed expects a number from 0.1 to 50, got \"fast\""],
  ])("evolve %j is one line, exit 2", async (args, words) => {
    const result = await runEvolve(CHECKOUT_BIN, args, ROOT, 60_000);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(`evolve ${args[0]}: ${words} (see evolve ${args[0]} --help)\n`);
  });

  it("a harness failure is exit 1 (an unknown run to show)", async () => {
    const result = await runEvolve(CHECKOUT_BIN, ["show", "no-such-run", "g0000", "--out", synthetic.root], ROOT, 60_000);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  });
});

/** `evolve ARGS` with its stdout closed before it writes a byte (as `| head -0` would). */
async function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string; pid: number }> {
  const child = spawn(process.execPath, [CHECKOUT_BIN, ...args], { cwd: ROOT, env: offlineEnv(), stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
  return { code, stderr, pid: child.pid! };
}

describe("a closed stdout", () => {
  it.each([
    [["ls"]],
    [["tree", "codes"]],
    [["diff", "codes", "g0001"]],
    [["--help"]],
  ])("evolve %j ends quietly with 0", async (args) => {
    const { code, stderr } = await withClosedStdout([...args, ...(args[0] === "--help" ? [] : ["--out", synthetic.root])]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("stops a run cleanly: marked interrupted, no container left, exit 0", async () => {
    const out = join(synthetic.root, "piped");
    const { code, stderr, pid } = await withClosedStdout(["run", "--generations", "2", "--runtime", "runc", "--out", out]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const listing = JSON.parse((await runEvolve(CHECKOUT_BIN, ["ls", "--json", "--out", out], ROOT, 60_000)).stdout) as { runs: { id: string }[] };
    expect(listing.runs).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(out, listing.runs[0]!.id, "run.json"), "utf8")).status).toBe("interrupted");
    expect(await sessionLeftovers(pid)).toEqual({ containers: [], volumes: [] });
  }, 180_000);
});

describe("a stdout that would block", () => {
  it("writes everything in order when fd 1 is a non-blocking pipe that fills up", async () => {
    // A net.Socket on fd 1 makes the pipe non-blocking (libuv), as an unusual parent's pipe can
    // be; 1 MiB overfills it while this test does not read, so writeStdout's write(2) meets EAGAIN
    // and must hand the rest to the stream instead of failing or dropping it.
    const module = resolve(ROOT, "harness/src/cli/process-exit.ts");
    const lines = 16_384;
    const script = `new (require("node:net").Socket)({ fd: 1, readable: false, writable: true }); import(${JSON.stringify(module)}).then((m) => { for (let i = 0; i < ${lines}; i++) m.writeStdout(String(i).padStart(63, ".") + "\\n"); });`;
    const child = spawn(process.execPath, ["--import", "tsx/esm", "-e", script], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pause();
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    await new Promise((r) => setTimeout(r, 1_500));
    child.stdout.resume();
    const code = await new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const expected = Array.from({ length: lines }, (_, i) => `${String(i).padStart(63, ".")}\n`).join("");
    expect(stdout.length).toBe(expected.length);
    expect(stdout === expected).toBe(true);
  }, 60_000);
});
